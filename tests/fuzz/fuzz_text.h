/* The fuzzer's bytes as the NUL-terminated text the parsers take (free() it). */
#ifndef CLIMIO_FUZZ_TEXT_H
#define CLIMIO_FUZZ_TEXT_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text) abort();
    memcpy(text, data, size);
    text[size] = '\0';
    return text;
}
#endif
