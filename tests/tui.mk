# tests for tui (see tests/local.mk)
