/* nearby-a11y.h: what GTK 4.8 gets wrong for screen readers, put right in one place
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* GTK 4.8 names a button whose label has a mnemonic by its "label" property, underscore and all,
 * followed by the text of the label that the mnemonic has it labelled by: Orca read "_Try Again
 * Try Again". Named by its label alone, it reads "Try Again". gtk_button_set_label() names the
 * button anew, so a button whose label changes is put right after each change. */
void nearby_a11y_name_button_by_its_label (GtkButton *button);

/* The same for every button with a mnemonic under @root (a window built from its template). */
void nearby_a11y_name_buttons_by_their_labels (GtkWidget *root);

/* libadwaita 1.2 builds a toast's widget as it shows the toast: its button with a mnemonic is
 * named twice as above ("_Undo Undo"), and its close button, an icon alone, has no name (Orca
 * said "GtkImage"). Call after adding @toast to an overlay under @root: the toast's widget, and
 * that of the toast waiting behind it, are put right once shown. */
void nearby_a11y_watch_toast (GtkWidget *root,
                              AdwToast  *toast);

G_END_DECLS
