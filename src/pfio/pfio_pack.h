/* A pack: the blocks one server rank forwards for one collection, with their
 * CollectiveStageData messages (PFIO's ForwardDataAndMessage).  Layout: int64
 * message count, header words and data bytes; per message [n, n stage words];
 * then the blocks' bytes in message order, 8-byte aligned. */
#ifndef CLIMIO_PFIO_PACK_H
#define CLIMIO_PFIO_PACK_H

#include "pfio.h"

typedef struct pf_pack {
    int64_t nmsg, hwords, dbytes;
    char *buf;
    int64_t hcur, dcur;         /* next header word, next data byte */
    char *grow;                 /* pf_pack_concat: the blocks so far */
} pf_pack;

/* Sizing pass: count a message and its block, then allocate, then add. */
void pf_pack_count(pf_pack *p, const pf_stage *st, int64_t bytes);
void pf_pack_alloc(pf_pack *p);
void pf_pack_add(pf_pack *p, const pf_stage *st, const void *data, int64_t bytes);
/* MAPL's way instead of pf_pack_alloc / pf_pack_add (ForwardDataAndMessage:
 * add_data_message appends each block by array concatenation, serialize
 * builds the buffer by another): pf_pack_alloc_head, pf_pack_concat for every
 * message, then pf_pack_serialize.  Same pack, with MAPL's copies. */
void pf_pack_alloc_head(pf_pack *p);
void pf_pack_concat(pf_pack *p, const pf_stage *st, const void *data, int64_t bytes);
void pf_pack_serialize(pf_pack *p);
int64_t pf_pack_size(const pf_pack *p);
/* The first message of a pack (the file name a collection goes to). */
void pf_pack_first(const pf_pack *p, pf_stage *st);
/* Call fn for every message of a received pack; fatal when it is malformed. */
void pf_pack_each(const char *buf, int64_t len, void (*fn)(void *ctx, const pf_stage *s, const void *data), void *ctx);

#endif
