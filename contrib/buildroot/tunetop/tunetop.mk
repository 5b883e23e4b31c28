################################################################################
#
# tunetop
#
################################################################################

TUNETOP_VERSION = 0.2.0
TUNETOP_SITE = https://github.com/tunetop/tunetop/releases/download/v$(TUNETOP_VERSION)
TUNETOP_LICENSE = GPL-2.0+
TUNETOP_LICENSE_FILES = COPYING
TUNETOP_DEPENDENCIES = host-pkgconf

ifeq ($(BR2_PACKAGE_TUNETOP_TUI),y)
TUNETOP_DEPENDENCIES += ncurses
TUNETOP_CONF_OPTS += --enable-tui
else
TUNETOP_CONF_OPTS += --disable-tui
endif

ifeq ($(BR2_PACKAGE_TUNETOP_BUNDLED_INIH),y)
TUNETOP_CONF_OPTS += --with-inih=bundled
else
TUNETOP_DEPENDENCIES += inih
TUNETOP_CONF_OPTS += --with-inih=system
endif

ifeq ($(BR2_PACKAGE_TUNETOP_DEMO),y)
TUNETOP_CONF_OPTS += --enable-demo
else
TUNETOP_CONF_OPTS += --disable-demo
endif

# loaded with dlopen() at first use, not linked
ifeq ($(BR2_PACKAGE_TUNETOP_LIBPFM4),y)
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

# the kernel configuration audit reads /proc/config.gz
ifeq ($(BR2_PACKAGE_ZLIB),y)
TUNETOP_DEPENDENCIES += zlib
TUNETOP_CONF_OPTS += --with-zlib=yes
else
TUNETOP_CONF_OPTS += --with-zlib=no
endif

# probe --why: the scheduler and IRQ events through libtracefs
ifeq ($(BR2_PACKAGE_LIBTRACEFS),y)
TUNETOP_DEPENDENCIES += libtracefs libtraceevent
TUNETOP_CONF_OPTS += --with-tracefs=yes
else
TUNETOP_CONF_OPTS += --with-tracefs=no
endif

$(eval $(autotools-package))
