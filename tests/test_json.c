/* Writes a JSON document with awkward strings and numbers; test_json.sh parses it
 * back with Python's json module and checks every value. */
#include "config.h"
#include "base/json.h"

#include <math.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    FILE *f = fopen(argv[1], "w");
    if (!f) return 1;
    cio_json j;
    cio_json_begin(&j, f, 1);
    cio_json_obj(&j, NULL);
    cio_json_str(&j, "quote", "say \"hi\"\\ \n\ttab \x01");
    cio_json_int(&j, "big", 9007199254740993LL);
    cio_json_uint(&j, "u64", 18446744073709551615ULL);
    cio_json_num(&j, "pi", 3.14159265358979);
    cio_json_num(&j, "inf", INFINITY);
    cio_json_num(&j, "bigdouble", 4221590515240.0);
    cio_json_num(&j, "third", 1.0 / 3.0);
    cio_json_bool(&j, "yes", 1);
    cio_json_null(&j, "nothing");
    cio_json_obj(&j, "empty");
    cio_json_obj_end(&j);
    cio_json_arr(&j, "list");
    cio_json_int(&j, NULL, 1);
    cio_json_str(&j, NULL, "two");
    cio_json_obj(&j, NULL);
    cio_json_num(&j, "x", -0.5);
    cio_json_obj_end(&j);
    cio_json_arr_end(&j);
    cio_json_arr(&j, "none");
    cio_json_arr_end(&j);
    cio_json_obj_end(&j);
    cio_json_end(&j);
    return fclose(f) != 0;
}
