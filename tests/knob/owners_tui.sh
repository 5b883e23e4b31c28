#!/bin/sh
. "$TT_SRCDIR/tests/lib.sh"
done_testing
