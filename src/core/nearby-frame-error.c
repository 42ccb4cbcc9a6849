/* nearby-frame-error.c: why a frame was rejected, in the user's language
 *
 * The codec has no GLib, so its sentences (nearby_frame_format_error()) are English only; those
 * stay in the command line's JSON, which scripts read. The inspector and the broadcast dialog
 * speak to people: the same sentences, built here from the error code and its numbers, with
 * gettext and real plurals.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-frame-error"

#include "config.h"

#include <glib/gi18n.h>

#include "nearby-frame-error.h"

static const char *
frame_name (const NearbyFrame *frame)
{
  if (frame->protocol == NEARBY_PROTOCOL_URIBEACON)
    /* Translators: kinds of frame go into sentences such as “The %s is 3 bytes long” */
    return _("UriBeacon frame");
  if (frame->protocol == NEARBY_PROTOCOL_IBEACON)
    return _("iBeacon frame");
  if (frame->protocol != NEARBY_PROTOCOL_EDDYSTONE)
    /* Translators: the advertising data as a whole: “The payload is 70 bytes long” */
    return _("payload");

  switch (frame->kind)
    {
    case NEARBY_FRAME_KIND_URL:
      return _("Eddystone-URL frame");
    case NEARBY_FRAME_KIND_UID:
      return _("Eddystone-UID frame");
    case NEARBY_FRAME_KIND_TLM:
      return _("Eddystone-TLM frame");
    case NEARBY_FRAME_KIND_ETLM:
      return _("Eddystone-TLM (encrypted) frame");
    case NEARBY_FRAME_KIND_EID:
      return _("Eddystone-EID frame");
    case NEARBY_FRAME_KIND_IBEACON:
    case NEARBY_FRAME_KIND_NONE:
    default:
      return _("Eddystone frame");
    }
}

/* Too short and too long alike: a urn:uuid: URI has one exact length. */
static char *
describe_urn_uuid_length (const NearbyFrame *frame,
                          guint              length,
                          guint              limit)
{
  /* Translators: %s is a kind of frame (“UriBeacon frame”) */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "The %s is %u byte long; a urn:uuid: URI needs exactly "
                                       "%u (a 16-byte UUID).",
                                       "The %s is %u bytes long; a urn:uuid: URI needs exactly "
                                       "%u (a 16-byte UUID).",
                                       length),
                          frame_name (frame), length, limit);
}

static char *
describe_truncated (const NearbyFrame *frame,
                    guint              length,
                    guint              limit)
{
  if (length == 0 && frame->protocol == NEARBY_PROTOCOL_NONE)
    return g_strdup (_("The payload is empty: paste the advertising data as hex."));

  if (frame->kind == NEARBY_FRAME_KIND_UID && length < NEARBY_EDDYSTONE_UID_LEN)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "The Eddystone-UID frame is %u byte long; it needs 18 "
                                         "(20 with the two reserved bytes).",
                                         "The Eddystone-UID frame is %u bytes long; it needs 18 "
                                         "(20 with the two reserved bytes).",
                                         length),
                            length);

  if (frame->kind == NEARBY_FRAME_KIND_URL && frame->error_byte == NEARBY_URIBEACON_SCHEME_URN_UUID)
    return describe_urn_uuid_length (frame, length, limit);

  if (frame->kind == NEARBY_FRAME_KIND_URL)
    /* Translators: %s is a kind of frame (“Eddystone-URL frame”) */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "The %s is %u byte long; it needs at least %u.",
                                         "The %s is %u bytes long; it needs at least %u.",
                                         length),
                            frame_name (frame), length, limit);

  /* Translators: %s is a kind of frame (“Eddystone-TLM frame”) or “payload” */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "The %s is %u byte long; it needs %u.",
                                       "The %s is %u bytes long; it needs %u.",
                                       length),
                          frame_name (frame), length, limit);
}

static char *
describe_too_long (const NearbyFrame *frame,
                   guint              length,
                   guint              limit)
{
  if (frame->protocol == NEARBY_PROTOCOL_NONE)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "The payload is %u byte long; an advertisement with its "
                                         "scan response holds at most %u.",
                                         "The payload is %u bytes long; an advertisement with its "
                                         "scan response holds at most %u.",
                                         length),
                            length, limit);

  if (frame->kind == NEARBY_FRAME_KIND_UID)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "The Eddystone-UID frame is %u byte long; it must be 18, "
                                         "or 20 with the two reserved bytes.",
                                         "The Eddystone-UID frame is %u bytes long; it must be 18, "
                                         "or 20 with the two reserved bytes.",
                                         length),
                            length);

  if (frame->kind == NEARBY_FRAME_KIND_URL && frame->error_byte == NEARBY_URIBEACON_SCHEME_URN_UUID)
    return describe_urn_uuid_length (frame, length, limit);

  /* Translators: %s is a kind of frame (“Eddystone-URL frame”) */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "The %s is %u byte long; it allows at most %u.",
                                       "The %s is %u bytes long; it allows at most %u.",
                                       length),
                          frame_name (frame), length, limit);
}

static char *
describe_malformed_ad (guint offset,
                       guint byte,
                       guint length,
                       guint limit)
{
  if (byte == NEARBY_AD_TYPE_UUID16_INCOMPLETE || byte == NEARBY_AD_TYPE_UUID16_COMPLETE)
    return g_strdup_printf (_("The 16-bit UUID list at byte %u has an odd length (%u): each UUID "
                              "takes two bytes."),
                            offset, length);

  if (length > limit)
    /* Translators: the count that decides the plural is the last one, of the bytes that follow */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "The AD structure at byte %u says it is %u bytes long, "
                                         "but only %u byte follows it.",
                                         "The AD structure at byte %u says it is %u bytes long, "
                                         "but only %u bytes follow it.",
                                         limit),
                            offset, length, limit);

  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "The AD structure at byte %u (type 0x%02X) is %u byte "
                                       "long, too short for its type (at least %u).",
                                       "The AD structure at byte %u (type 0x%02X) is %u bytes "
                                       "long, too short for its type (at least %u).",
                                       length),
                          offset, byte, length, limit);
}

char *
nearby_frame_describe_error (const NearbyFrame *frame)
{
  guint offset, byte, length, limit;

  g_return_val_if_fail (frame != NULL, NULL);

  offset = (guint) frame->error_offset;
  byte = frame->error_byte;
  length = (guint) frame->error_length;
  limit = (guint) frame->error_limit;

  switch (frame->error)
    {
    case NEARBY_FRAME_ERROR_TRUNCATED:
      return describe_truncated (frame, length, limit);

    case NEARBY_FRAME_ERROR_TOO_LONG:
      return describe_too_long (frame, length, limit);

    case NEARBY_FRAME_ERROR_UNKNOWN_FRAME_TYPE:
      return g_strdup_printf (_("Eddystone frame type 0x%02X is not defined: expected 0x00 (UID), "
                                "0x10 (URL), 0x20 (TLM) or 0x30 (EID)."),
                              byte);

    case NEARBY_FRAME_ERROR_RESERVED_NIBBLE:
      return g_strdup_printf (_("Eddystone frame type byte 0x%02X has its reserved low four bits "
                                "set: they must be zero (0x%02X)."),
                              byte, byte & 0xF0);

    case NEARBY_FRAME_ERROR_UNKNOWN_SCHEME:
      if (frame->protocol == NEARBY_PROTOCOL_URIBEACON)
        return g_strdup_printf (_("Byte %u, the URL scheme prefix, is 0x%02X, which is not "
                                  "defined: UriBeacon frame allows 0x00 http://www., 0x01 "
                                  "https://www., 0x02 http://, 0x03 https:// and 0x04 urn:uuid:."),
                                offset, byte);
      /* Translators: the second %s is a kind of frame (“Eddystone-URL frame”) */
      return g_strdup_printf (_("Byte %u, the URL scheme prefix, is 0x%02X, which is not defined: "
                                "%s allows 0x00 http://www., 0x01 https://www., 0x02 http:// and "
                                "0x03 https://."),
                              offset, byte, frame_name (frame));

    case NEARBY_FRAME_ERROR_RESERVED_BYTE:
      return g_strdup_printf (_("Byte %u of the URL frame is 0x%02X, which is reserved: only "
                                "expansion codes 0x00–0x0D and printable ASCII 0x21–0x7E are "
                                "allowed."),
                              offset, byte);

    case NEARBY_FRAME_ERROR_EMPTY_URL:
      /* Translators: %s is a kind of frame (“Eddystone-URL frame”) */
      return g_strdup_printf (_("The %s holds no address after byte %u: there is nothing to "
                                "open."),
                              frame_name (frame), offset > 0 ? offset - 1 : 0);

    case NEARBY_FRAME_ERROR_RESERVED_FLAGS:
      return g_strdup_printf (_("UriBeacon flags are 0x%02X: only bit 0 (Invisible Hint, 0x01) is "
                                "defined; bits 1–7 must be zero."),
                              byte);

    case NEARBY_FRAME_ERROR_UNKNOWN_TLM_VERSION:
      return g_strdup_printf (_("TLM version 0x%02X is not defined: use 0x00 (plain) or 0x01 "
                                "(encrypted)."),
                              byte);

    case NEARBY_FRAME_ERROR_MALFORMED_AD:
      return describe_malformed_ad (offset, byte, length, limit);

    case NEARBY_FRAME_ERROR_URL_TOO_LONG:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "The URL needs %u byte with its scheme prefix, %u more "
                                           "than the %u a frame carries: use a URL shortener.",
                                           "The URL needs %u bytes with its scheme prefix, %u more "
                                           "than the %u a frame carries: use a URL shortener.",
                                           length),
                              length, length - limit, limit);

    case NEARBY_FRAME_ERROR_UNSUPPORTED_CHARACTER:
      if (byte > 0x20 && byte < 0x7F)
        return g_strdup_printf (_("Character %u of the URL, “%c”, cannot be carried by a frame."),
                                offset + 1, (int) byte);
      return g_strdup_printf (_("Character %u of the URL is byte 0x%02X, which no frame can "
                                "carry: only printable ASCII 0x21–0x7E is allowed; percent-encode "
                                "it."),
                              offset + 1, byte);

    case NEARBY_FRAME_OK:
      return g_strdup (_("The frame is valid."));

    case NEARBY_FRAME_ERROR_NOT_A_BEACON:
      return g_strdup (_("The data holds no Eddystone, UriBeacon or iBeacon frame."));

    case NEARBY_FRAME_ERROR_UNSUPPORTED_SCHEME:
      return g_strdup (_("The URL must start with http:// or https:// (or urn:uuid: for "
                         "UriBeacon)."));

    case NEARBY_FRAME_ERROR_INVALID_UUID:
      return g_strdup (_("A urn:uuid: URI must be followed by a UUID such as "
                         "b1e13d51-5fc9-4d5b-902b-ab668dd54981."));

    case NEARBY_FRAME_N_ERRORS:
    default:
      return g_strdup (_("Unknown error."));
    }
}
