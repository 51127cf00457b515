/*
 * gst-seek-stress: shows the GStreamer 1.22.0 adaptivedemux2 seek crash without any Cove code.
 *
 * Plays an HLS URL in many short-lived playbin3 pipelines (threads × iterations), each torn down after
 * a random 50–1500 ms, and sends flushing seeks as soon as each preroll or earlier seek completes — so
 * most seeks land while segments are still downloading. On GStreamer 1.22.0 that aborts the process
 * (download_request_set_uri: request->in_use == FALSE) or crashes it inside libsoup on the demuxer's
 * download thread. QUIET_MS=100 makes every seek first wait until the demuxer has had no segment data
 * for that long (what Cove's SeekGate did, until Cove stopped using GStreamer's adaptive streaming
 * altogether); the crashes then stop.
 *
 *   make -C tools/gst-seek-stress
 *   cove serve-media --root "$(cove fixtures | head -1)" --port 18777 &
 *   THREADS=2 ITERATIONS=40 tools/gst-seek-stress/gst-seek-stress http://127.0.0.1:18777/ladder/master.m3u8
 *
 * Environment: THREADS (2), ITERATIONS (40 per thread), SEEKS (3 per pipeline), QUIET_MS (0 = seek at
 * once). Exit status 0 means every pipeline finished; a crash shows as 134 (abort) or 139 (SIGSEGV).
 */
#include <gst/gst.h>
#include <stdlib.h>

static const char *uri;
static int iterations = 40, seeks_per_pipeline = 3, quiet_ms = 0;

static int env_int(const char *name, int fallback) {
  const char *value = g_getenv(name);
  return value ? atoi(value) : fallback;
}

/* Time the demuxer's parser last received segment bytes (monotonic µs). */
static GstPadProbeReturn on_segment_data(GstPad *pad, GstPadProbeInfo *info, gpointer last) {
  g_atomic_pointer_set((gpointer *)last, GSIZE_TO_POINTER((gsize)g_get_monotonic_time()));
  return GST_PAD_PROBE_OK;
}

static void on_element_added(GstBin *bin, GstBin *parent, GstElement *element, gpointer last) {
  GstElementFactory *factory = gst_element_get_factory(element);
  GstElementFactory *parent_factory = parent ? gst_element_get_factory(GST_ELEMENT(parent)) : NULL;
  if (!factory || !parent_factory) return;
  if (g_str_equal(GST_OBJECT_NAME(factory), "parsebin") && g_str_equal(GST_OBJECT_NAME(parent_factory), "hlsdemux2")) {
    GstPad *pad = gst_element_get_static_pad(element, "sink");
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, on_segment_data, last, NULL);
    gst_object_unref(pad);
  }
}

static void wait_until_quiet(gpointer *last) {
  gint64 give_up = g_get_monotonic_time() + 3 * G_USEC_PER_SEC;
  while (g_get_monotonic_time() < give_up &&
         g_get_monotonic_time() - (gint64)GPOINTER_TO_SIZE(g_atomic_pointer_get(last)) < quiet_ms * 1000)
    g_usleep(5000);
}

static gpointer run_pipelines(gpointer unused) {
  for (int i = 0; i < iterations; i++) {
    gpointer *last = g_new0(gpointer, 1);
    GstElement *playbin = gst_element_factory_make("playbin3", NULL);
    GstElement *video = gst_parse_bin_from_description("capsfilter caps=video/x-raw ! fakesink sync=false", TRUE, NULL);
    GstElement *audio = gst_parse_bin_from_description("capsfilter caps=audio/x-raw ! fakesink sync=false", TRUE, NULL);
    g_object_set(playbin, "uri", uri, "video-sink", video, "audio-sink", audio, NULL);
    g_signal_connect(playbin, "deep-element-added", G_CALLBACK(on_element_added), last);
    gst_element_set_state(playbin, GST_STATE_PLAYING);
    GstBus *bus = gst_element_get_bus(playbin);
    gint64 teardown = g_get_monotonic_time() + g_random_int_range(50, 1500) * 1000;
    int seeks = 0;
    while (g_get_monotonic_time() < teardown) {
      GstMessage *message = gst_bus_timed_pop(bus, 20 * GST_MSECOND);
      if (!message) continue;
      if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_ASYNC_DONE && seeks < seeks_per_pipeline) {
        seeks++;
        if (quiet_ms > 0) wait_until_quiet(last);
        gst_element_seek_simple(playbin, GST_FORMAT_TIME, GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_KEY_UNIT,
                                g_random_int_range(0, 18) * GST_SECOND);
      }
      gst_message_unref(message);
    }
    gst_element_set_state(playbin, GST_STATE_NULL);
    gst_object_unref(bus);
    gst_object_unref(playbin);
    g_free(last);
  }
  return NULL;
}

int main(int argc, char **argv) {
  gst_init(&argc, &argv);
  if (argc != 2) {
    g_printerr("usage: %s HLS-URL   (see the comment at the top of gst-seek-stress.c)\n", argv[0]);
    return 2;
  }
  uri = argv[1];
  int threads = CLAMP(env_int("THREADS", 2), 1, 16);
  iterations = env_int("ITERATIONS", 40);
  seeks_per_pipeline = env_int("SEEKS", 3);
  quiet_ms = env_int("QUIET_MS", 0);
  GThread *workers[16];
  for (int t = 0; t < threads; t++) workers[t] = g_thread_new("pipelines", run_pipelines, NULL);
  for (int t = 0; t < threads; t++) g_thread_join(workers[t]);
  g_print("%d pipelines, %d seeks each, quiet %d ms: no crash\n", threads * iterations, seeks_per_pipeline, quiet_ms);
  return 0;
}
