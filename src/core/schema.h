/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The "schema" member of every JSON document tunetop writes (issue 16):
 * "tunetop.KIND/N". N goes up only when a document changes incompatibly
 * (a key removed or its meaning changed); new keys keep N. The JSON Schema
 * (draft 2020-12) of each kind is doc/schema/KIND.schema.json. Readers
 * (replay, report) accept documents without the member: files written
 * before it existed. */
#ifndef TT_CORE_SCHEMA_H
#define TT_CORE_SCHEMA_H

#define TT_SCHEMA_SNAPSHOT "tunetop.snapshot/1" /* snapshot/watch --json, a recording's samples */
#define TT_SCHEMA_PROBE	   "tunetop.probe/1"	/* probe --json */
#define TT_SCHEMA_AB	   "tunetop.ab/1"	/* ab --json */
#define TT_SCHEMA_KNOBS	   "tunetop.knobs/1"	/* knobs --json */
#define TT_SCHEMA_JOURNAL  "tunetop.journal/1"	/* journal --json */
#define TT_SCHEMA_RECORD   "tunetop.record/1"	/* a recording's header line */
#define TT_SCHEMA_WHY	   "tunetop.why/1" /* why --json (probe --json nests the same members) */

#endif
