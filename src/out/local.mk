libtunetop_a_SOURCES += src/out/cmd_snapshot.c
