/* nearby-section-model.c: the list's objects with a heading over each part
 *
 * GtkListView has no section headers before GTK 4.12, so the headings are items of the model,
 * between the objects. A heading moves only when the objects around it do, or when an object's
 * section changes in place without breaking the order (the last row of "Right here" that goes
 * to "Nearby" stays where it is, under the heading that now fits); a change that the list will
 * answer by moving the row waits for that move, so a heading never jumps ahead of its rows. While
 * paused (the person points at the list, which then does not move) no heading moves at all; the
 * rows that join at the end meanwhile come under a heading of their own.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-section-model"

#include "config.h"

#include "nearby-section-model.h"

typedef struct {
  NearbyObject  *object;
  NearbySection  section;   /* the one it is shown under */
} Entry;

struct _NearbySectionModel
{
  GObject     parent_instance;

  GListModel *objects;
  GArray     *entries;      /* of Entry, in the order of @objects */
  GPtrArray  *items;        /* headers and objects, as shown */
  GArray     *sections;     /* of NearbySection, for each item: see get_section() */
  gboolean    paused;
};

static void nearby_section_model_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (NearbySectionModel, nearby_section_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      nearby_section_model_list_model_init))

enum {
  PROP_0,
  PROP_OBJECTS,
  PROP_PAUSED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static GType
nearby_section_model_get_item_type (GListModel *model)
{
  return G_TYPE_OBJECT;
}

static guint
nearby_section_model_get_n_items (GListModel *model)
{
  return NEARBY_SECTION_MODEL (model)->items->len;
}

static gpointer
nearby_section_model_get_item (GListModel *model,
                               guint       position)
{
  NearbySectionModel *self = NEARBY_SECTION_MODEL (model);

  if (position >= self->items->len)
    return NULL;

  return g_object_ref (g_ptr_array_index (self->items, position));
}

static void
nearby_section_model_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = nearby_section_model_get_item_type;
  iface->get_n_items = nearby_section_model_get_n_items;
  iface->get_item = nearby_section_model_get_item;
}

/* An object is the same item only under the same heading: a row that says no distance under a
 * heading that says it for it is told of another heading. */
static gboolean
same_item (gpointer      a,
           NearbySection a_section,
           gpointer      b,
           NearbySection b_section)
{
  if (a == b)
    return a_section == b_section;

  return NEARBY_IS_SECTION_HEADER (a) && NEARBY_IS_SECTION_HEADER (b)
         && nearby_section_header_get_section (a) == nearby_section_header_get_section (b);
}

/* Shows the entries as they are now, in one change over the part that differs; headings that
 * stay keep their objects. */
static void
rebuild (NearbySectionModel *self)
{
  g_autoptr(GPtrArray) old_items = self->items;
  g_autoptr(GArray) old_sections = self->sections;
  GPtrArray *new_items = g_ptr_array_new_full (old_items->len, g_object_unref);
  GArray *new_sections = g_array_sized_new (FALSE, FALSE, sizeof (NearbySection), old_items->len);
  guint prefix = 0;
  guint suffix = 0;

  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = &g_array_index (self->entries, Entry, i);

      if (i == 0 || g_array_index (self->entries, Entry, i - 1).section != entry->section)
        {
          g_ptr_array_add (new_items, nearby_section_header_new (entry->section));
          g_array_append_val (new_sections, entry->section);
        }
      g_ptr_array_add (new_items, g_object_ref (entry->object));
      g_array_append_val (new_sections, entry->section);
    }

  while (prefix < old_items->len && prefix < new_items->len
         && same_item (old_items->pdata[prefix], g_array_index (old_sections, NearbySection, prefix),
                       new_items->pdata[prefix], g_array_index (new_sections, NearbySection, prefix)))
    {
      g_object_unref (new_items->pdata[prefix]);
      new_items->pdata[prefix] = g_object_ref (old_items->pdata[prefix]);
      prefix++;
    }
  while (suffix < old_items->len - prefix && suffix < new_items->len - prefix
         && same_item (old_items->pdata[old_items->len - 1 - suffix],
                       g_array_index (old_sections, NearbySection, old_items->len - 1 - suffix),
                       new_items->pdata[new_items->len - 1 - suffix],
                       g_array_index (new_sections, NearbySection, new_items->len - 1 - suffix)))
    {
      guint n = new_items->len - 1 - suffix;

      g_object_unref (new_items->pdata[n]);
      new_items->pdata[n] = g_object_ref (old_items->pdata[old_items->len - 1 - suffix]);
      suffix++;
    }

  self->items = new_items;
  self->sections = new_sections;
  if (old_items->len != new_items->len || prefix + suffix < old_items->len)
    g_list_model_items_changed (G_LIST_MODEL (self), prefix,
                                old_items->len - prefix - suffix,
                                new_items->len - prefix - suffix);
}

/* Every object goes under the section it is in now, when that keeps the sections in order.
 * Out of order means the list has yet to move a row (or is paused): the headings wait for it. */
static gboolean
adopt_sections (NearbySectionModel *self)
{
  g_autofree NearbySection *now = NULL;
  gboolean changed = FALSE;

  if (self->paused)
    return FALSE;

  now = g_new (NearbySection, self->entries->len);
  for (guint i = 0; i < self->entries->len; i++)
    {
      now[i] = nearby_section_for_object (g_array_index (self->entries, Entry, i).object);
      if (i > 0 && now[i] < now[i - 1])
        return FALSE;
    }

  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = &g_array_index (self->entries, Entry, i);

      changed = changed || entry->section != now[i];
      entry->section = now[i];
    }

  return changed;
}

static void
on_object_notify (NearbySectionModel *self)
{
  if (adopt_sections (self))
    rebuild (self);
}

static void
clear_entry (gpointer data)
{
  Entry *entry = data;

  g_clear_object (&entry->object);
}

static void
on_objects_changed (NearbySectionModel *self,
                    guint               position,
                    guint               removed,
                    guint               added,
                    GListModel         *objects)
{
  for (guint i = position; i < position + removed; i++)
    g_signal_handlers_disconnect_by_data (g_array_index (self->entries, Entry, i).object, self);
  g_array_remove_range (self->entries, position, removed);

  for (guint i = 0; i < added; i++)
    {
      Entry entry;

      entry.object = g_list_model_get_item (objects, position + i);
      entry.section = nearby_section_for_object (entry.object);
      /* Plain handlers, let go of above and when the model is disposed: one that watched the
       * model as well would cost 70 bytes more on each of thousands of objects. */
      g_signal_connect_swapped (entry.object, "notify::bucket", G_CALLBACK (on_object_notify), self);
      g_signal_connect_swapped (entry.object, "notify::favourite", G_CALLBACK (on_object_notify), self);
      g_array_insert_val (self->entries, position + i, entry);
    }

  adopt_sections (self);
  rebuild (self);
}

NearbySectionModel *
nearby_section_model_new (GListModel *objects)
{
  g_return_val_if_fail (G_IS_LIST_MODEL (objects), NULL);

  return g_object_new (NEARBY_TYPE_SECTION_MODEL, "objects", objects, NULL);
}

NearbySection
nearby_section_model_get_section (NearbySectionModel *self,
                                  guint               position)
{
  g_return_val_if_fail (NEARBY_IS_SECTION_MODEL (self), NEARBY_SECTION_UNKNOWN);
  g_return_val_if_fail (position < self->sections->len, NEARBY_SECTION_UNKNOWN);

  return g_array_index (self->sections, NearbySection, position);
}

GListModel *
nearby_section_model_get_objects (NearbySectionModel *self)
{
  g_return_val_if_fail (NEARBY_IS_SECTION_MODEL (self), NULL);

  return self->objects;
}

gboolean
nearby_section_model_get_paused (NearbySectionModel *self)
{
  g_return_val_if_fail (NEARBY_IS_SECTION_MODEL (self), FALSE);

  return self->paused;
}

void
nearby_section_model_set_paused (NearbySectionModel *self,
                                 gboolean            paused)
{
  g_return_if_fail (NEARBY_IS_SECTION_MODEL (self));

  paused = !!paused;
  if (self->paused == paused)
    return;

  self->paused = paused;
  if (!paused && adopt_sections (self))
    rebuild (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAUSED]);
}

static void
nearby_section_model_set_objects (NearbySectionModel *self,
                                  GListModel         *objects)
{
  g_assert (self->objects == NULL);

  self->objects = g_object_ref (objects);
  g_signal_connect_object (objects, "items-changed",
                           G_CALLBACK (on_objects_changed), self, G_CONNECT_SWAPPED);
  on_objects_changed (self, 0, 0, g_list_model_get_n_items (objects), objects);
}

static void
nearby_section_model_dispose (GObject *object)
{
  NearbySectionModel *self = NEARBY_SECTION_MODEL (object);

  for (guint i = 0; i < self->entries->len; i++)
    g_signal_handlers_disconnect_by_data (g_array_index (self->entries, Entry, i).object, self);
  g_array_set_size (self->entries, 0);
  g_ptr_array_set_size (self->items, 0);
  g_array_set_size (self->sections, 0);
  g_clear_object (&self->objects);

  G_OBJECT_CLASS (nearby_section_model_parent_class)->dispose (object);
}

static void
nearby_section_model_finalize (GObject *object)
{
  NearbySectionModel *self = NEARBY_SECTION_MODEL (object);

  g_array_unref (self->entries);
  g_ptr_array_unref (self->items);
  g_array_unref (self->sections);

  G_OBJECT_CLASS (nearby_section_model_parent_class)->finalize (object);
}

static void
nearby_section_model_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  NearbySectionModel *self = NEARBY_SECTION_MODEL (object);

  switch (prop_id)
    {
    case PROP_OBJECTS:
      g_value_set_object (value, self->objects);
      break;

    case PROP_PAUSED:
      g_value_set_boolean (value, self->paused);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_section_model_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  NearbySectionModel *self = NEARBY_SECTION_MODEL (object);

  switch (prop_id)
    {
    case PROP_OBJECTS:
      nearby_section_model_set_objects (self, g_value_get_object (value));
      break;

    case PROP_PAUSED:
      nearby_section_model_set_paused (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_section_model_class_init (NearbySectionModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = nearby_section_model_dispose;
  object_class->finalize = nearby_section_model_finalize;
  object_class->get_property = nearby_section_model_get_property;
  object_class->set_property = nearby_section_model_set_property;

  properties[PROP_OBJECTS] =
    g_param_spec_object ("objects", NULL, NULL, G_TYPE_LIST_MODEL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  /* Set while the list does not move (the person points at it): no heading moves either. */
  properties[PROP_PAUSED] =
    g_param_spec_boolean ("paused", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
nearby_section_model_init (NearbySectionModel *self)
{
  self->entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  g_array_set_clear_func (self->entries, clear_entry);
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
  self->sections = g_array_new (FALSE, FALSE, sizeof (NearbySection));
}
