/* bluez-mock-beacons.h: beacons for the mock bluetoothd: their Device1 properties, and adding
 * and changing them
 *
 * Shared by the tests of NearbyScanner and of `nearby scan`.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bluez-mock-harness.h"

G_BEGIN_DECLS

/* Properties as a{sv}, floating: name, value, ..., NULL. */
GVariant *props            (const char   *first_name,
                            ...) G_GNUC_NULL_TERMINATED;
/* The ServiceData of an Eddystone-URL beacon, or of an Eddystone-TLM one (3000 mV). */
GVariant *url_service_data (const char   *url,
                            int           tx_power);
GVariant *tlm_service_data (void);

/* Adds a device to hci0 and returns its object path. @properties: a{sv}, floating. */
char     *add_beacon       (BluezMock    *mock,
                            const char   *address,
                            GVariant     *properties);
/* PropertiesChanged for the device at @path; @invalidated: one property name, or NULL. */
void      update_device    (BluezMock    *mock,
                            const char   *path,
                            GVariant     *changed,
                            const char   *invalidated);

G_END_DECLS
