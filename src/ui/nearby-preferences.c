/* nearby-preferences.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-preferences"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "nearby-preferences.h"

struct _NearbyPreferences
{
  AdwPreferencesWindow  parent_instance;

  GSettings            *settings;
  GListModel           *hidden_sites;

  AdwComboRow          *lookup_policy_row;
  GtkSwitch            *show_invisible_switch;
  GtkAdjustment        *stale_adjustment;
  GtkAdjustment        *expiry_adjustment;
  AdwComboRow          *surroundings_row;
  GtkSwitch            *developer_switch;
  GtkListBox           *hidden_sites_list;
};

G_DEFINE_FINAL_TYPE (NearbyPreferences, nearby_preferences, ADW_TYPE_PREFERENCES_WINDOW)

enum {
  PROP_0,
  PROP_HIDDEN_SITES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Surroundings → the distance model's path-loss exponent: 2 in open space, 4 where walls absorb
 * most of the signal. An exponent set by hand (the key takes 1.5 to 4) shows as the nearest. */
static const double surroundings_exponents[] = { 2.0, 3.0, 4.0 };

static gboolean
exponent_to_position (GValue   *value,
                      GVariant *variant,
                      gpointer  user_data)
{
  double exponent = g_variant_get_double (variant);
  guint nearest = 0;

  for (guint i = 1; i < G_N_ELEMENTS (surroundings_exponents); i++)
    if (fabs (exponent - surroundings_exponents[i]) < fabs (exponent - surroundings_exponents[nearest]))
      nearest = i;
  g_value_set_uint (value, nearest);

  return TRUE;
}

static GVariant *
position_to_exponent (const GValue       *value,
                      const GVariantType *expected_type,
                      gpointer            user_data)
{
  guint position = g_value_get_uint (value);

  if (position >= G_N_ELEMENTS (surroundings_exponents))
    return NULL;

  return g_variant_new_double (surroundings_exponents[position]);
}

/* The combo row lists the policies in the order of the schema's enum values. */
static gboolean
policy_to_position (GValue   *value,
                    GVariant *variant,
                    gpointer  user_data)
{
  const char *nick = g_variant_get_string (variant, NULL);
  guint position = 1;

  if (g_str_equal (nick, "automatic"))
    position = 0;
  else if (g_str_equal (nick, "never"))
    position = 2;
  g_value_set_uint (value, position);

  return TRUE;
}

static GVariant *
position_to_policy (const GValue       *value,
                    const GVariantType *expected_type,
                    gpointer            user_data)
{
  static const char *nicks[] = { "automatic", "ask", "never" };
  guint position = g_value_get_uint (value);

  if (position >= G_N_ELEMENTS (nicks))
    return NULL;

  return g_variant_new_string (nicks[position]);
}

/* A combo row's choices, whole. AdwComboRow 1.2's own labels stop at 20 characters: "Secure pages
 * automatically" (and the German "Sichere Seiten automatisch") showed as "Secure pages automat…"
 * in a 640-pixel window with room to spare. These take the room there is, and wrap where there
 * is not (360 pixels). */
static void
setup_choice (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              gpointer                  user_data)
{
  gboolean in_list = GPOINTER_TO_INT (user_data);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (label), in_list ? 0.0 : 1.0);
  gtk_label_set_justify (GTK_LABEL (label), in_list ? GTK_JUSTIFY_LEFT : GTK_JUSTIFY_RIGHT);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_box_append (GTK_BOX (box), label);

  /* In the list of choices, a check mark on the chosen one, as AdwComboRow has it. */
  if (in_list)
    {
      GtkWidget *check = gtk_image_new_from_icon_name ("object-select-symbolic");

      gtk_widget_set_visible (check, FALSE);
      gtk_box_append (GTK_BOX (box), check);
    }
  gtk_list_item_set_child (item, box);
}

static void
update_check (GtkListItem *item)
{
  GtkWidget *box = gtk_list_item_get_child (item);
  GtkWidget *check = gtk_widget_get_last_child (box);
  AdwComboRow *row = g_object_get_data (G_OBJECT (item), "nearby-combo-row");

  if (row != NULL && GTK_IS_IMAGE (check))
    gtk_widget_set_visible (check, adw_combo_row_get_selected (row) ==
                                   gtk_list_item_get_position (item));
}

static void
bind_choice (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             gpointer                  user_data)
{
  GtkWidget *box = gtk_list_item_get_child (item);
  GtkStringObject *choice = gtk_list_item_get_item (item);
  AdwComboRow *row = g_object_get_data (G_OBJECT (factory), "nearby-combo-row");

  gtk_label_set_label (GTK_LABEL (gtk_widget_get_first_child (box)),
                       gtk_string_object_get_string (choice));
  if (GPOINTER_TO_INT (user_data))
    {
      g_object_set_data (G_OBJECT (item), "nearby-combo-row", row);
      g_signal_connect_object (row, "notify::selected", G_CALLBACK (update_check), item,
                               G_CONNECT_SWAPPED);
      update_check (item);
    }
}

static void
unbind_choice (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               gpointer                  user_data)
{
  AdwComboRow *row = g_object_get_data (G_OBJECT (factory), "nearby-combo-row");

  if (GPOINTER_TO_INT (user_data))
    g_signal_handlers_disconnect_by_func (row, update_check, item);
}

static GtkListItemFactory *
choice_factory (AdwComboRow *row,
                gboolean     in_list)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_object_set_data (G_OBJECT (factory), "nearby-combo-row", row);
  g_signal_connect (factory, "setup", G_CALLBACK (setup_choice), GINT_TO_POINTER (in_list));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_choice), GINT_TO_POINTER (in_list));
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_choice), GINT_TO_POINTER (in_list));

  return factory;
}

static void
show_choices_whole (AdwComboRow *row)
{
  g_autoptr(GtkListItemFactory) factory = choice_factory (row, FALSE);
  g_autoptr(GtkListItemFactory) list_factory = choice_factory (row, TRUE);

  adw_combo_row_set_factory (row, factory);
  adw_combo_row_set_list_factory (row, list_factory);
}

static GtkWidget *
create_hidden_site_row (gpointer item,
                    gpointer user_data)
{
  const char *host = gtk_string_object_get_string (GTK_STRING_OBJECT (item));
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *button = gtk_button_new_from_icon_name ("edit-delete-symbolic");
  g_autofree char *label = g_strdup_printf (_("Show objects from %s again"), host);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), host);
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (button, _("Show Again"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  gtk_widget_add_css_class (button, "flat");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "app.show-site");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "s", host);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);

  return row;
}

NearbyPreferences *
nearby_preferences_new (GtkWindow  *parent,
                        GListModel *hidden_sites)
{
  return g_object_new (NEARBY_TYPE_PREFERENCES,
                       "transient-for", parent,
                       "modal", TRUE,
                       "destroy-with-parent", TRUE,
                       "hidden-sites", hidden_sites,
                       NULL);
}

static void
nearby_preferences_constructed (GObject *object)
{
  NearbyPreferences *self = NEARBY_PREFERENCES (object);

  G_OBJECT_CLASS (nearby_preferences_parent_class)->constructed (object);

  if (self->hidden_sites != NULL)
    gtk_list_box_bind_model (self->hidden_sites_list, self->hidden_sites,
                             create_hidden_site_row, NULL, NULL);
}

static void
nearby_preferences_dispose (GObject *object)
{
  NearbyPreferences *self = NEARBY_PREFERENCES (object);

  gtk_widget_dispose_template (GTK_WIDGET (object), NEARBY_TYPE_PREFERENCES);
  g_clear_object (&self->settings);
  g_clear_object (&self->hidden_sites);

  G_OBJECT_CLASS (nearby_preferences_parent_class)->dispose (object);
}

static void
nearby_preferences_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  NearbyPreferences *self = NEARBY_PREFERENCES (object);

  switch (prop_id)
    {
    case PROP_HIDDEN_SITES:
      self->hidden_sites = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_preferences_class_init (NearbyPreferencesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = nearby_preferences_constructed;
  object_class->dispose = nearby_preferences_dispose;
  object_class->set_property = nearby_preferences_set_property;

  properties[PROP_HIDDEN_SITES] =
    g_param_spec_object ("hidden-sites", NULL, NULL,
                         G_TYPE_LIST_MODEL,
                         (G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/nearbyweb/Nearby/nearby-preferences.ui");
  gtk_widget_class_bind_template_child (widget_class, NearbyPreferences, lookup_policy_row);
  gtk_widget_class_bind_template_child (widget_class, NearbyPreferences, show_invisible_switch);
  gtk_widget_class_bind_template_child (widget_class, NearbyPreferences, stale_adjustment);
  gtk_widget_class_bind_template_child (widget_class, NearbyPreferences, expiry_adjustment);
  gtk_widget_class_bind_template_child (widget_class, NearbyPreferences, surroundings_row);
  gtk_widget_class_bind_template_child (widget_class, NearbyPreferences, developer_switch);
  gtk_widget_class_bind_template_child (widget_class, NearbyPreferences, hidden_sites_list);
}

static void
nearby_preferences_init (NearbyPreferences *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  show_choices_whole (self->lookup_policy_row);
  show_choices_whole (self->surroundings_row);

  self->settings = g_settings_new (APP_ID);
  g_settings_bind_with_mapping (self->settings, "lookup-policy",
                                self->lookup_policy_row, "selected",
                                G_SETTINGS_BIND_DEFAULT,
                                policy_to_position, position_to_policy, NULL, NULL);
  g_settings_bind (self->settings, "show-invisible",
                   self->show_invisible_switch, "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "stale-seconds",
                   self->stale_adjustment, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "expiry-seconds",
                   self->expiry_adjustment, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind_with_mapping (self->settings, "path-loss-exponent",
                                self->surroundings_row, "selected",
                                G_SETTINGS_BIND_DEFAULT,
                                exponent_to_position, position_to_exponent, NULL, NULL);
  g_settings_bind (self->settings, "developer-mode",
                   self->developer_switch, "active", G_SETTINGS_BIND_DEFAULT);
}
