# SPDX-License-Identifier: GPL-2.0-or-later
# configure --with-inih=bundled: the INI parser compiled in (README.md here)
# instead of libinih. In libtunetop.a, so the binary and the tests get it.
if INIH_BUNDLED
libtunetop_a_SOURCES += src/third_party/inih/ini.c src/third_party/inih/ini.h
endif
EXTRA_DIST += src/third_party/inih/README.md
