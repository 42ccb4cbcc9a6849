/* bluez-mock-harness.h: a private system bus, the mock bluetoothd on it, and the built `nearby`
 *
 * Shared by the D-Bus tests. The mock is tests/bluez_nearby.py, a dbusmock template; it is
 * driven through its org.bluez.Mock methods and its org.freedesktop.DBus.Mock call log.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define BLUEZ_MOCK_IFACE          "org.bluez.Mock"
#define BLUEZ_MOCK_DBUSMOCK_IFACE "org.freedesktop.DBus.Mock"

#define HARNESS_WAIT_SECONDS 60

/* What a test fixture holds for the mock: the test's own connection to the (private) system bus,
 * and the mock bluetoothd while it runs. */
typedef struct {
  GDBusConnection *bus;
  GSubprocess     *process;
} BluezMock;

/* Waiting on the main context */

/* Timeout callbacks for WAIT_UNTIL: the first sets the gboolean it is given. */
gboolean harness_set_flag   (gpointer flag);
gboolean harness_wake_up    (gpointer unused);
void     harness_run_for_ms (guint    ms);

/* Iterates the default main context until @condition holds, for at most HARNESS_WAIT_SECONDS,
 * then asserts it. Conditions that ask the mock (a method call) need the loop to wake up now and
 * then, so a 20 ms timeout keeps it turning. */
#define WAIT_UNTIL(condition)                                                              \
  G_STMT_START {                                                                           \
    gboolean timed_out_ = FALSE;                                                           \
    guint timeout_id_ = g_timeout_add_seconds (HARNESS_WAIT_SECONDS, harness_set_flag,     \
                                               &timed_out_);                               \
    guint poll_id_ = g_timeout_add (20, harness_wake_up, NULL);                            \
    while (!(condition) && !timed_out_)                                                    \
      g_main_context_iteration (NULL, TRUE);                                               \
    if (!timed_out_)                                                                       \
      g_source_remove (timeout_id_);                                                       \
    g_source_remove (poll_id_);                                                            \
    g_assert_true (condition);                                                             \
  } G_STMT_END

/* The private bus */

int harness_run_tests_on_private_system_bus (void);

/* The mock bluetoothd */

void      bluez_mock_set_up       (BluezMock  *mock);
void      bluez_mock_tear_down    (BluezMock  *mock);
void      bluez_mock_start        (BluezMock  *mock);
void      bluez_mock_stop         (BluezMock  *mock);
GVariant *bluez_mock_call         (BluezMock  *mock,
                                   const char *path,
                                   const char *interface,
                                   const char *method,
                                   GVariant   *parameters,
                                   const char *reply_type);
void      bluez_mock_control      (BluezMock  *mock,
                                   const char *method,
                                   GVariant   *parameters);
void      bluez_mock_add_adapter  (BluezMock  *mock,
                                   const char *name,
                                   gboolean    powered);
guint     bluez_mock_count_calls  (BluezMock  *mock,
                                   const char *adapter,
                                   const char *method);

/* The built `nearby` binary */

GSubprocess *harness_spawn_nearby  (GSubprocessFlags   flags,
                                    GError           **error,
                                    ...) G_GNUC_NULL_TERMINATED;
int          harness_finish_nearby (GSubprocess       *process,
                                    char             **out,
                                    char             **err);

G_END_DECLS
