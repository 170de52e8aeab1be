/* Element types of variables and attributes. */
#ifndef CLIMIO_TYPES_H
#define CLIMIO_TYPES_H

#include <stdint.h>
#include <stddef.h>

typedef enum cio_type {
    CIO_CHAR = 0,   /* text: attributes and character variables (NC_CHAR) */
    CIO_BYTE,       /* int8 */
    CIO_SHORT,      /* int16 */
    CIO_INT,        /* int32 */
    CIO_FLOAT,
    CIO_DOUBLE,
    CIO_INT64,
    CIO_NTYPES
} cio_type;

size_t cio_type_size(cio_type t);
const char *cio_type_name(cio_type t);       /* netCDF CDL name: "float", "int", ... */
int cio_type_from_name(const char *name, cio_type *t);   /* accepts integer/int/float/real/double/... */

#endif
