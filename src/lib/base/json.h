/* A small streaming JSON writer (no dependencies): objects, arrays, strings with
 * proper escaping, integers, doubles (non-finite written as null). */
#ifndef CLIMIO_JSON_H
#define CLIMIO_JSON_H

#include <stdint.h>
#include <stdio.h>

typedef struct cio_json {
    FILE *out;
    int depth;
    int first[32];      /* no member written yet at this depth */
    int pretty;
} cio_json;

void cio_json_begin(cio_json *j, FILE *out, int pretty);
void cio_json_end(cio_json *j);       /* final newline */
void cio_json_obj(cio_json *j, const char *key);    /* key NULL inside arrays / at top */
void cio_json_obj_end(cio_json *j);
void cio_json_arr(cio_json *j, const char *key);
void cio_json_arr_end(cio_json *j);
void cio_json_str(cio_json *j, const char *key, const char *v);    /* v NULL -> null */
void cio_json_int(cio_json *j, const char *key, int64_t v);
void cio_json_uint(cio_json *j, const char *key, uint64_t v);
void cio_json_num(cio_json *j, const char *key, double v);
void cio_json_bool(cio_json *j, const char *key, int v);
void cio_json_null(cio_json *j, const char *key);

#endif
