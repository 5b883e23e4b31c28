# source layer sources
libtunetop_a_SOURCES += src/source/topology.c src/source/topology.h
libtunetop_a_SOURCES += src/source/procstat.c src/source/procstat.h src/source/system.c src/source/system.h
libtunetop_a_SOURCES += src/source/cpufreq.c src/source/cpufreq.h src/source/cpuidle.c src/source/cpuidle.h
