# TT_CHECK_CFLAG(FLAG, [ACTION-IF-OK], [ACTION-IF-NOT])
# Checks whether the C compiler accepts FLAG (with -Werror so that unknown
# warning options are rejected rather than ignored).
AC_DEFUN([TT_CHECK_CFLAG], [
  AS_VAR_PUSHDEF([tt_var], [tt_cv_cflag_$1])
  AC_CACHE_CHECK([whether $CC accepts $1], [tt_var], [
    tt_save_CFLAGS=$CFLAGS
    CFLAGS="$CFLAGS -Werror $1"
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
      [AS_VAR_SET([tt_var], [yes])], [AS_VAR_SET([tt_var], [no])])
    CFLAGS=$tt_save_CFLAGS])
  AS_VAR_IF([tt_var], [yes], [$2], [$3])
  AS_VAR_POPDEF([tt_var])
])
