# SPDX-License-Identifier: GPL-2.0-or-later
# probe layer sources: latency probe threads, histograms, statistics
libtunetop_a_SOURCES += \
	src/probe/histogram.c src/probe/histogram.h \
	src/probe/stats.c src/probe/stats.h \
	src/probe/probe.c src/probe/probe.h \
	src/probe/readygate.c src/probe/readygate.h \
	src/probe/histfile.c src/probe/histfile.h \
	src/probe/tracebreak.c src/probe/tracebreak.h \
	src/probe/rpmsg.c src/probe/rpmsg.h
# A/B controller, background load, `tunetop ab`
libtunetop_a_SOURCES += \
	src/probe/load.c src/probe/load.h \
	src/probe/ab.c src/probe/ab.h
# why late (issue 29): the event stream and its attribution
libtunetop_a_SOURCES += \
	src/probe/why.h src/probe/whyev.c \
	src/probe/whyattr.h src/probe/whyattr.c src/probe/whyout.c
# why late (issue 29): capturing the kernel's events (libtracefs, optional)
libtunetop_a_SOURCES += \
	src/probe/whycap.c src/probe/whycap.h
