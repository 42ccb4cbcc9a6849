/* nearby-application-private.h: what the application and its actions share
 *
 * NearbyApplication spans three files: nearby-application.c (the services and how they are
 * wired), nearby-application-actions.c (the app.* actions) and nearby-application-exit.c (a
 * clean exit on signals, with the history written).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "nearby-advertiser.h"
#include "nearby-application.h"
#include "nearby-demo.h"
#include "nearby-page-loader.h"
#include "nearby-scanner.h"
#include "nearby-window.h"

G_BEGIN_DECLS

struct _NearbyApplication
{
  AdwApplication     parent_instance;

  GSettings         *settings;
  NearbyHistory     *history;
  NearbyObjectList  *objects;
  NearbyResolver    *resolver;
  NearbyPageLoader  *page_loader;
  GtkFilterListModel *shown_objects;
  GtkCustomFilter   *hidden_sites_filter;
  NearbySource      *source;       /* what the window reports on: the scanner, a replay, a demo */
  NearbyDemo        *demo;
  NearbyScanner     *scanner;
  NearbyAdvertiser  *advertiser;   /* developer mode's "Broadcast a URL…" */
  AdwToast          *broadcast_toast; /* "Broadcasting …" with Stop, while it is shown */
  GtkStringList     *hidden_sites;
  GtkWindow         *preferences;  /* made once, hidden on close; NULL once destroyed */
  GCancellable      *cancellable;
  guint              n_opening;    /* pages asked of the browser, their visits not yet recorded */
  guint              quit_signal_sources[3];
  guint              trim_source;  /* gives memory back once the last object has gone */
  guint              trim_peak;    /* the most objects listed since memory was last given back */
  guint              trim_size;    /* the objects listed then */
  gboolean           trim_after_crowd; /* trim_source is for a crowd that came */

  gboolean           developer;    /* --developer: for this run only */
  gboolean           start_demo;
  char              *replay_path;
  double             replay_speed;
};

/* The main window, whichever window is active; NULL before it is made. */
NearbyWindow *_nearby_application_get_window     (NearbyApplication *self);
/* Shows @toast (transfer full) where the person is looking, or logs it with no window. */
void          _nearby_application_add_toast      (NearbyApplication *self,
                                                  AdwToast          *toast);
void          _nearby_application_toast          (NearbyApplication *self,
                                                  const char        *message);
/* Whether the list leaves @object out because its site is hidden. */
gboolean      _nearby_application_object_is_hidden (NearbyApplication *self,
                                                    NearbyObject      *object);
/* Replaces the source with the demo; says why in a toast if it cannot start. */
void          _nearby_application_start_demo     (NearbyApplication *self);

/* nearby-application-exit.c */
/* Quits normally on SIGTERM, SIGINT and SIGHUP. */
void          _nearby_application_exit_init      (NearbyApplication *self);
/* Waits, a bounded time, for the visits still being recorded to reach the history. */
void          _nearby_application_exit_flush     (NearbyApplication *self);

/* nearby-application-actions.c */
void          _nearby_application_actions_init   (NearbyApplication *self);
/* Enables what developer mode and a broadcast under way allow. */
void          _nearby_application_actions_update (NearbyApplication *self);

G_END_DECLS
