/* fuzz-glib.c: GLib warnings and criticals count as findings
 *
 * A critical is GLib saying that it was called wrongly, so for a fuzz target it is as much a
 * finding as a crash. GLib's own fatal-criticals raises SIGTRAP, which libFuzzer does not catch,
 * so the input would be lost; aborting instead makes libFuzzer save it as a crash artifact.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <stdlib.h>

#include <glib.h>

int LLVMFuzzerInitialize (int *argc, char ***argv);

static GLogWriterOutput
abort_on_warning (GLogLevelFlags   log_level,
                  const GLogField *fields,
                  gsize            n_fields,
                  gpointer         user_data)
{
  /* The default writer, so that debug messages stay quiet unless G_MESSAGES_DEBUG asks. */
  g_log_writer_default (log_level, fields, n_fields, user_data);
  if (log_level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING))
    abort ();
  return G_LOG_WRITER_HANDLED;
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  g_log_set_writer_func (abort_on_warning, NULL, NULL);
  return 0;
}
