# themes: semantic colour roles (src/ui/theme.c). default and monochrome are
# also compiled in, so the program works with no theme files installed.
dist_themes_DATA += themes/default.theme themes/monochrome.theme \
	themes/light.theme themes/high-contrast.theme
