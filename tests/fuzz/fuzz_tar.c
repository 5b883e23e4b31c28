/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz the demo bundle's ustar reader (src/model/sim.c sim_tar_walk, what
 * sim_untar unpacks with). No file is written: the harness checks what an
 * unpacker would be asked to do. Every member name is relative, has no
 * empty, "." or ".." component and does not lead through a symlink the
 * archive made before it; file data lies inside the archive. */
#include "core/str.h"
#include "model/sim.h"
#include "fuzz.h"

struct seen {
	const uint8_t *buf;
	size_t len;
	char links[64][260];
	size_t nlinks;
	unsigned sum;
};

static int on_entry(const struct sim_tar_entry *e, void *ctx)
{
	struct seen *s = ctx;
	const char *p = e->rel;

	FUZZ_ASSERT(*p && *p != '/');
	for (;;) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);

		FUZZ_ASSERT(n > 0);
		FUZZ_ASSERT(!(n == 1 && p[0] == '.'));
		FUZZ_ASSERT(!(n == 2 && p[0] == '.' && p[1] == '.'));
		if (!slash)
			break;
		p = slash + 1;
	}
	for (size_t i = 0; i < s->nlinks; i++) {
		size_t l = strlen(s->links[i]);

		FUZZ_ASSERT(strncmp(e->rel, s->links[i], l) || e->rel[l] != '/');
	}
	if (e->type == '2' && s->nlinks < 64)
		str_copy(s->links[s->nlinks++], sizeof(s->links[0]), e->rel);
	if (e->data) {
		FUZZ_ASSERT((const uint8_t *)e->data >= s->buf);
		FUZZ_ASSERT(e->size <= s->len - (size_t)((const uint8_t *)e->data - s->buf));
		for (size_t i = 0; i < e->size; i++) /* touch every byte (ASan) */
			s->sum += (unsigned char)e->data[i];
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct seen *s = calloc(1, sizeof(*s));

	if (!s)
		abort();
	s->buf = data;
	s->len = size;
	(void)sim_tar_walk(data, size, on_entry, s);
	free(s);
	return 0;
}
