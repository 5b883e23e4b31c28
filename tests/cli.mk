# tests for cli (see tests/local.mk)
