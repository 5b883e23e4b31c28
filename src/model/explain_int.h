/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private to the explain module: the table (explain_table.c) and its size. */
#ifndef TT_MODEL_EXPLAIN_INT_H
#define TT_MODEL_EXPLAIN_INT_H

#include <stddef.h>

#include "model/explain.h"

extern const struct explain_entry explain_table[];
extern const size_t explain_table_len;

#endif
