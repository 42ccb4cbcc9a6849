/* nearby-section-header.c: the heading over a part of the list
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "nearby-section-header.h"

struct _NearbySectionHeader
{
  GObject       parent_instance;

  NearbySection section;
};

G_DEFINE_FINAL_TYPE (NearbySectionHeader, nearby_section_header, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_SECTION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

NearbySection
nearby_section_for_object (NearbyObject *object)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT (object), NEARBY_SECTION_UNKNOWN);

  /* The list's own order: favourites first, then by distance, unknown distance last. */
  if (nearby_object_get_favourite (object))
    return NEARBY_SECTION_FAVOURITES;

  return nearby_section_for_bucket (nearby_object_get_bucket (object));
}

NearbySection
nearby_section_for_bucket (NearbyBucket bucket)
{
  switch (bucket)
    {
    case NEARBY_BUCKET_IMMEDIATE:
      return NEARBY_SECTION_IMMEDIATE;
    case NEARBY_BUCKET_NEAR:
      return NEARBY_SECTION_NEAR;
    case NEARBY_BUCKET_FAR:
      return NEARBY_SECTION_FAR;
    case NEARBY_BUCKET_UNKNOWN:
    default:
      return NEARBY_SECTION_UNKNOWN;
    }
}

NearbySectionHeader *
nearby_section_header_new (NearbySection section)
{
  return g_object_new (NEARBY_TYPE_SECTION_HEADER, "section", (int) section, NULL);
}

NearbySection
nearby_section_header_get_section (NearbySectionHeader *self)
{
  g_return_val_if_fail (NEARBY_IS_SECTION_HEADER (self), NEARBY_SECTION_UNKNOWN);

  return self->section;
}

static void
nearby_section_header_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  NearbySectionHeader *self = NEARBY_SECTION_HEADER (object);

  switch (prop_id)
    {
    case PROP_SECTION:
      g_value_set_int (value, (int) self->section);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_section_header_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  NearbySectionHeader *self = NEARBY_SECTION_HEADER (object);

  switch (prop_id)
    {
    case PROP_SECTION:
      self->section = (NearbySection) g_value_get_int (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_section_header_class_init (NearbySectionHeaderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = nearby_section_header_get_property;
  object_class->set_property = nearby_section_header_set_property;

  properties[PROP_SECTION] =
    g_param_spec_int ("section", NULL, NULL,
                      NEARBY_SECTION_FAVOURITES, NEARBY_SECTION_UNKNOWN, NEARBY_SECTION_UNKNOWN,
                      (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
nearby_section_header_init (NearbySectionHeader *self)
{
  self->section = NEARBY_SECTION_UNKNOWN;
}
