/* nearby-resolver-drain.c: the rest of a page's body, read and thrown away
 *
 * The parser has what it needs once a page's head is read; the rest of the body is still read,
 * in the background, when it is short and comes at once. A connection the server keeps whose
 * response was read to its end goes back to libsoup's pool, so the next request to the same host
 * (the manifest, the icons, the next object of the same site) needs no new TCP and TLS
 * handshake. A connection the server closes after the response (HTTP/1.0 servers such as
 * `python3 -m http.server`, small embedded ones) is read to its end too: closed with bytes
 * unread, it ends in a reset, which the server logs as an error (http.server prints a traceback
 * for each) and meets while it still writes the rest, beside the next request
 * (tests/bench/README.md has what that cost http.server). A longer rest, or one that does not
 * come within DRAIN_DEADLINE_MS, is cut off by closing the connection: a connection kept waiting
 * would hold the host's other look-ups back (two connections per host).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-resolver"

#include "config.h"

#include "nearby-resolver-private.h"

#define DRAIN_MAX_BYTES    (256 * 1024)
#define DRAIN_DEADLINE_MS  250
#define DRAIN_CHUNK        (16 * 1024)

typedef struct {
  GInputStream *stream;
  GCancellable *cancellable;
  guint         deadline_id;
  guint64       left;
} Drain;

static void drain_next (Drain *drain);

static gboolean
on_drain_deadline (gpointer user_data)
{
  Drain *drain = user_data;

  drain->deadline_id = 0;
  g_cancellable_cancel (drain->cancellable);

  return G_SOURCE_REMOVE;
}

static void
on_drained (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  Drain *drain = user_data;
  gssize skipped = g_input_stream_skip_finish (G_INPUT_STREAM (source), result, NULL);

  if (skipped > 0 && (guint64) skipped < drain->left)
    {
      drain->left -= skipped;
      drain_next (drain);
      return;
    }

  /* At the end of the body, the stream's close hands the connection back to the pool; short
   * of it, it closes the connection. */
  g_clear_handle_id (&drain->deadline_id, g_source_remove);
  g_object_unref (drain->cancellable);
  g_object_unref (drain->stream);
  g_free (drain);
}

static void
drain_next (Drain *drain)
{
  g_input_stream_skip_async (drain->stream, MIN (drain->left, DRAIN_CHUNK), G_PRIORITY_DEFAULT,
                             drain->cancellable, on_drained, drain);
}

/* Takes the job's response stream: drained in the background, or closed at once. */
void
_nearby_resolver_job_drain (NearbyResolverJob *job)
{
  SoupMessageHeaders *headers = soup_message_get_response_headers (job->message);
  g_autoptr(GInputStream) stream = g_steal_pointer (&job->stream);
  Drain *drain;

  if (stream == NULL || g_input_stream_is_closed (stream) || g_input_stream_has_pending (stream))
    return;

  if (soup_message_headers_get_encoding (headers) == SOUP_ENCODING_CONTENT_LENGTH)
    {
      goffset length = soup_message_headers_get_content_length (headers);

      if ((guint64) length < job->body_read || (guint64) length - job->body_read > DRAIN_MAX_BYTES)
        return;
    }

  drain = g_new0 (Drain, 1);
  drain->stream = g_steal_pointer (&stream);
  drain->cancellable = g_cancellable_new ();
  drain->deadline_id = g_timeout_add (DRAIN_DEADLINE_MS, on_drain_deadline, drain);
  /* One byte more than the longest rest read: the read that finds the end */
  drain->left = DRAIN_MAX_BYTES + 1;
  drain_next (drain);
}
