# SPDX-License-Identifier: GPL-2.0-or-later
################################################################################
#
# tunetop
#
################################################################################

TUNETOP_VERSION = 0.2.0
TUNETOP_SITE = $(call github,tunetop,tunetop,v$(TUNETOP_VERSION))
TUNETOP_LICENSE = GPL-2.0+
TUNETOP_LICENSE_FILES = COPYING
TUNETOP_DEPENDENCIES = host-pkgconf ncurses libinih
# the GitHub archive has no configure script
TUNETOP_AUTORECONF = YES

ifeq ($(BR2_PACKAGE_LIBPFM4),y)
TUNETOP_DEPENDENCIES += libpfm4
TUNETOP_CONF_OPTS += --with-libpfm=yes
else
TUNETOP_CONF_OPTS += --with-libpfm=no
endif

ifeq ($(BR2_PACKAGE_LM_SENSORS),y)
TUNETOP_DEPENDENCIES += lm-sensors
TUNETOP_CONF_OPTS += --with-sensors=yes
else
TUNETOP_CONF_OPTS += --with-sensors=no
endif

ifeq ($(BR2_PACKAGE_ZSTD),y)
TUNETOP_DEPENDENCIES += zstd
TUNETOP_CONF_OPTS += --with-zstd=yes
else
TUNETOP_CONF_OPTS += --with-zstd=no
endif

# the kernel-configuration audit reads /proc/config.gz through zlib
ifeq ($(BR2_PACKAGE_ZLIB),y)
TUNETOP_DEPENDENCIES += zlib
TUNETOP_CONF_OPTS += --with-zlib=yes
else
TUNETOP_CONF_OPTS += --with-zlib=no
endif

# probe --why reads the kernel's scheduler and IRQ events through libtracefs
ifeq ($(BR2_PACKAGE_LIBTRACEFS),y)
TUNETOP_DEPENDENCIES += libtracefs
TUNETOP_CONF_OPTS += --with-tracefs=yes
else
TUNETOP_CONF_OPTS += --with-tracefs=no
endif

$(eval $(autotools-package))
