# tests for knob (see tests/local.mk)
