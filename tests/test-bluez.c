/* test-bluez.c: which Bluetooth adapter the scanner and the advertiser use
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib.h>

#include "nearby-bluez.h"

#define HCI0 "/org/bluez/hci0"
#define HCI1 "/org/bluez/hci1"
#define HCI2 "/org/bluez/hci2"

#define CHOOSE(adapters, name) \
  nearby_bluez_choose_adapter ((adapters), G_N_ELEMENTS (adapters), (name))

/* With none powered, the first by path, in whatever order bluetoothd lists them. */
static void
test_first_by_path (void)
{
  const NearbyBluezAdapter listed_in_order[] = { { HCI0, FALSE }, { HCI1, FALSE } };
  const NearbyBluezAdapter listed_backwards[] = {
    { HCI2, FALSE }, { HCI1, FALSE }, { HCI0, FALSE },
  };
  const NearbyBluezAdapter alone[] = { { HCI1, FALSE } };

  g_assert_cmpint (CHOOSE (listed_in_order, NULL), ==, 0);
  g_assert_cmpint (CHOOSE (listed_backwards, NULL), ==, 2);
  g_assert_cmpint (CHOOSE (alone, NULL), ==, 0);
}

/* A powered adapter wins over the first one: that is where scanning can start at once. */
static void
test_powered_first (void)
{
  const NearbyBluezAdapter second_powered[] = {
    { HCI0, FALSE }, { HCI1, TRUE }, { HCI2, FALSE },
  };
  const NearbyBluezAdapter two_powered[] = {
    { HCI2, TRUE }, { HCI0, FALSE }, { HCI1, TRUE },
  };
  const NearbyBluezAdapter all_powered[] = { { HCI1, TRUE }, { HCI0, TRUE } };

  g_assert_cmpint (CHOOSE (second_powered, NULL), ==, 1);
  g_assert_cmpint (CHOOSE (two_powered, NULL), ==, 2);
  g_assert_cmpint (CHOOSE (all_powered, NULL), ==, 1);
}

/* `--adapter hci1`: that one, powered or not, and no other when it is missing. */
static void
test_named (void)
{
  const NearbyBluezAdapter adapters[] = { { HCI0, TRUE }, { HCI1, FALSE }, { HCI2, TRUE } };
  const NearbyBluezAdapter without_hci1[] = { { HCI0, TRUE }, { HCI2, TRUE } };

  g_assert_cmpint (CHOOSE (adapters, "hci1"), ==, 1);
  g_assert_cmpint (CHOOSE (adapters, "hci2"), ==, 2);
  g_assert_cmpint (CHOOSE (without_hci1, "hci1"), ==, -1);
  /* The name is the last element of the path, not the path or a part of a name. */
  g_assert_cmpint (CHOOSE (adapters, HCI1), ==, -1);
  g_assert_cmpint (CHOOSE (adapters, "hci"), ==, -1);
  g_assert_cmpint (CHOOSE (adapters, ""), ==, -1);
}

static void
test_none (void)
{
  g_assert_cmpint (nearby_bluez_choose_adapter (NULL, 0, NULL), ==, -1);
  g_assert_cmpint (nearby_bluez_choose_adapter (NULL, 0, "hci0"), ==, -1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/bluez/choose-adapter/first-by-path", test_first_by_path);
  g_test_add_func ("/bluez/choose-adapter/powered-first", test_powered_first);
  g_test_add_func ("/bluez/choose-adapter/named", test_named);
  g_test_add_func ("/bluez/choose-adapter/none", test_none);

  return g_test_run ();
}
