libtunetop_a_SOURCES += src/out/cmd_snapshot.c
libtunetop_a_SOURCES += src/out/cpufreq_out.c src/out/cpufreq_out.h src/out/cpuidle_out.c src/out/cpuidle_out.h
