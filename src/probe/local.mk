# probe layer sources: latency probe threads, histograms, statistics, commands
libtunetop_a_SOURCES += \
	src/probe/histogram.c src/probe/histogram.h \
	src/probe/stats.c src/probe/stats.h \
	src/probe/probe.c src/probe/probe.h \
	src/probe/cmd_probe.c
