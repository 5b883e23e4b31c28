# SPDX-License-Identifier: GPL-2.0-or-later
# The Buildroot package and the Yocto recipe (contrib/): their conventions,
# versions and hashes (recipes_lint.sh, < 1 s), and builds against cross
# sysroots holding only what each declares (recipes.sh: Buildroot and Yocto
# on armhf and arm64, Debian packages fetched with apt-get download; 207
# CPU-seconds, once per run-all.sh, skipped when the archive is not
# reachable) (issue 34)
TESTS += tests/packaging/recipes_lint.sh tests/packaging/recipes.sh
EXTRA_DIST += tests/packaging/recipes_lint.sh tests/packaging/recipes.sh \
	tests/packaging/recipe_build.sh tests/packaging/recipe_deps.py
