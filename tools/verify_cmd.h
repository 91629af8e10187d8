/* totex verify: dispatch on the file's kind (tools/verify_cmd.c). */
#ifndef TOTEX_TOOLS_VERIFY_CMD_H
#define TOTEX_TOOLS_VERIFY_CMD_H

#include <stdio.h>

/** Usage of totex verify (all three kinds of file). */
void totex_cmd_verify_usage(FILE *fp);
/** totex verify FILE [...]: exit 0 valid, 1 the schedule breaks the model, 2 bad file or option. */
int totex_cmd_verify(int argc, char **argv);

#endif
