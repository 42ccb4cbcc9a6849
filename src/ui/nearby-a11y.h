/* nearby-a11y.h: what GTK 4.8 gets wrong for screen readers, put right in one place
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* GTK 4.8 names a button whose label has a mnemonic by its "label" property, underscore and all,
 * followed by the text of the label that the mnemonic has it labelled by: Orca read "_Try Again
 * Try Again". Named by its label alone, it reads "Try Again". gtk_button_set_label() names the
 * button anew, so a button whose label changes is put right after each change. */
void nearby_a11y_name_button_by_its_label (GtkButton *button);

/* The same for every button with a mnemonic under @root (a window built from its template). */
void nearby_a11y_name_buttons_by_their_labels (GtkWidget *root);

G_END_DECLS
