libtunetop_a_SOURCES += src/model/snapshot.c src/model/snapshot.h
