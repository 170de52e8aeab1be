/* Print files of the compiled-in E3SM case table (e3sm_case.h) as
 * scripts/e3sm-case-table writes them: e3sm_case_dump NAME... (a line per
 * string, a newline as \n, a backslash as \\).  Exit 1 for a name it lacks. */
#include "config.h"
#include "e3sm_case.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    for (int a = 1; a < argc; a++) {
        const char *const *lines = e3sm_case_lookup(argv[a]);
        if (!lines) {
            fprintf(stderr, "e3sm_case_dump: the table has no %s\n", argv[a]);
            return 1;
        }
        for (int i = 0; lines[i]; i++) {
            for (const char *c = lines[i]; *c; c++)
                if (*c == '\n') fputs("\\n", stdout);
                else if (*c == '\\') fputs("\\\\", stdout);
                else putchar(*c);
            putchar('\n');
        }
    }
    return 0;
}
