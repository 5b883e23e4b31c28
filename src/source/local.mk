# source layer sources
libtunetop_a_SOURCES += src/source/topology.c src/source/topology.h
