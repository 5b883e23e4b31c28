/* SPDX-License-Identifier: GPL-2.0-or-later */
/* errno names for one-line error messages: the whole Linux errno set
 * (asm-generic/errno-base.h and errno.h, 1..133; 41 and 58 are unused), as
 * a table because strerrorname_np() is glibc-only. Where two names share a
 * value (EWOULDBLOCK = EAGAIN, EDEADLOCK = EDEADLK, ENOTSUP = EOPNOTSUPP)
 * the first one listed wins; the aliases at the end only name a value of
 * their own (EDEADLOCK on powerpc, ENOTSUP on parisc). */
#include "core/err.h"

#include <errno.h>
#include <stdio.h>

struct err_entry {
	int err;
	const char *name;
};

/* clang-format off */
#define E(n) {n, #n}
/* clang-format on */

static const struct err_entry names[] = {
	E(EPERM),
	E(ENOENT),
	E(ESRCH),
	E(EINTR),
	E(EIO),
	E(ENXIO),
	E(E2BIG),
	E(ENOEXEC),
	E(EBADF),
	E(ECHILD),
	E(EAGAIN),
	E(ENOMEM),
	E(EACCES),
	E(EFAULT),
	E(ENOTBLK),
	E(EBUSY),
	E(EEXIST),
	E(EXDEV),
	E(ENODEV),
	E(ENOTDIR),
	E(EISDIR),
	E(EINVAL),
	E(ENFILE),
	E(EMFILE),
	E(ENOTTY),
	E(ETXTBSY),
	E(EFBIG),
	E(ENOSPC),
	E(ESPIPE),
	E(EROFS),
	E(EMLINK),
	E(EPIPE),
	E(EDOM),
	E(ERANGE),
	E(EDEADLK),
	E(ENAMETOOLONG),
	E(ENOLCK),
	E(ENOSYS),
	E(ENOTEMPTY),
	E(ELOOP),
	E(ENOMSG),
	E(EIDRM),
	E(ECHRNG),
	E(EL2NSYNC),
	E(EL3HLT),
	E(EL3RST),
	E(ELNRNG),
	E(EUNATCH),
	E(ENOCSI),
	E(EL2HLT),
	E(EBADE),
	E(EBADR),
	E(EXFULL),
	E(ENOANO),
	E(EBADRQC),
	E(EBADSLT),
	E(EBFONT),
	E(ENOSTR),
	E(ENODATA),
	E(ETIME),
	E(ENOSR),
	E(ENONET),
	E(ENOPKG),
	E(EREMOTE),
	E(ENOLINK),
	E(EADV),
	E(ESRMNT),
	E(ECOMM),
	E(EPROTO),
	E(EMULTIHOP),
	E(EDOTDOT),
	E(EBADMSG),
	E(EOVERFLOW),
	E(ENOTUNIQ),
	E(EBADFD),
	E(EREMCHG),
	E(ELIBACC),
	E(ELIBBAD),
	E(ELIBSCN),
	E(ELIBMAX),
	E(ELIBEXEC),
	E(EILSEQ),
	E(ERESTART),
	E(ESTRPIPE),
	E(EUSERS),
	E(ENOTSOCK),
	E(EDESTADDRREQ),
	E(EMSGSIZE),
	E(EPROTOTYPE),
	E(ENOPROTOOPT),
	E(EPROTONOSUPPORT),
	E(ESOCKTNOSUPPORT),
	E(EOPNOTSUPP),
	E(EPFNOSUPPORT),
	E(EAFNOSUPPORT),
	E(EADDRINUSE),
	E(EADDRNOTAVAIL),
	E(ENETDOWN),
	E(ENETUNREACH),
	E(ENETRESET),
	E(ECONNABORTED),
	E(ECONNRESET),
	E(ENOBUFS),
	E(EISCONN),
	E(ENOTCONN),
	E(ESHUTDOWN),
	E(ETOOMANYREFS),
	E(ETIMEDOUT),
	E(ECONNREFUSED),
	E(EHOSTDOWN),
	E(EHOSTUNREACH),
	E(EALREADY),
	E(EINPROGRESS),
	E(ESTALE),
	E(EUCLEAN),
	E(ENOTNAM),
	E(ENAVAIL),
	E(EISNAM),
	E(EREMOTEIO),
	E(EDQUOT),
	E(ENOMEDIUM),
	E(EMEDIUMTYPE),
	E(ECANCELED),
	E(ENOKEY),
	E(EKEYEXPIRED),
	E(EKEYREVOKED),
	E(EKEYREJECTED),
	E(EOWNERDEAD),
	E(ENOTRECOVERABLE),
#ifdef ERFKILL
	E(ERFKILL),
#endif
#ifdef EHWPOISON
	E(EHWPOISON),
#endif
#ifdef EWOULDBLOCK
	E(EWOULDBLOCK),
#endif
#ifdef EDEADLOCK
	E(EDEADLOCK),
#endif
#ifdef ENOTSUP
	E(ENOTSUP),
#endif
};

const char *err_name(int err)
{
	static _Thread_local char buf[16];

	if (err < 0)
		err = -err;
	if (err == 0)
		return "OK";
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].err == err)
			return names[i].name;
	snprintf(buf, sizeof(buf), "E?%d", err);
	return buf;
}
