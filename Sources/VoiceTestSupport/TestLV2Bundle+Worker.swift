extension TestLV2Bundle {
    /// A plugin that exercises the host's worker, log and URID features:
    /// `urn:voicerack:test:worker` requires urid:map, log:log and worker:schedule. It logs
    /// "test worker ready at RATE Hz" (a note) when instantiated. While it has scheduled fewer than
    /// `requests` (control input) jobs, each run() schedules job k = 1, 2, ...; work() answers
    /// 10 × k; work_response() counts the answers in `responses` (control output) and from then on
    /// halves the audio (output = input × 0.5; × 0 if an answer arrives out of order); end_run()
    /// counts itself in `ends`. Before any answer the output is the input.
    public static let workerURI = "urn:voicerack:test:worker"

    static let workerManifest = """
        <urn:voicerack:test:worker> a lv2:Plugin ;
            lv2:binary <worker.so> ;
            doap:name "voicerack test worker" ;
            lv2:requiredFeature <http://lv2plug.in/ns/ext/urid#map>, <http://lv2plug.in/ns/ext/log#log>,
                <http://lv2plug.in/ns/ext/worker#schedule> ;
            lv2:optionalFeature lv2:hardRTCapable ;
            lv2:extensionData <http://lv2plug.in/ns/ext/worker#interface> ;
            lv2:port [ a lv2:AudioPort, lv2:InputPort ; lv2:index 0 ; lv2:symbol "in" ; lv2:name "In" ] ,
                [ a lv2:AudioPort, lv2:OutputPort ; lv2:index 1 ; lv2:symbol "out" ; lv2:name "Out" ] ,
                [ a lv2:ControlPort, lv2:InputPort ; lv2:index 2 ; lv2:symbol "requests" ; lv2:name "Requests" ;
                  lv2:default 0.0 ; lv2:minimum 0.0 ; lv2:maximum 100.0 ] ,
                [ a lv2:ControlPort, lv2:OutputPort ; lv2:index 3 ; lv2:symbol "responses" ; lv2:name "Responses" ] ,
                [ a lv2:ControlPort, lv2:OutputPort ; lv2:index 4 ; lv2:symbol "ends" ; lv2:name "End runs" ] .

        """

    static let workerSource = """
        #include <lv2/core/lv2.h>
        #include <lv2/log/log.h>
        #include <lv2/urid/urid.h>
        #include <lv2/worker/worker.h>
        #include <stdlib.h>
        #include <string.h>
        typedef struct {
            const float *in; float *out; const float *requests; float *responses; float *ends;
            LV2_Worker_Schedule *schedule; int scheduled; float gain;
        } Worker;
        static LV2_Handle instantiate(const LV2_Descriptor *d, double rate, const char *path,
                                      const LV2_Feature *const *features) {
            Worker *w = calloc(1, sizeof(Worker));
            LV2_URID_Map *map = NULL; LV2_Log_Log *log = NULL;
            w->gain = 1;
            for (int i = 0; features[i]; i++) {
                if (!strcmp(features[i]->URI, LV2_WORKER__schedule)) w->schedule = features[i]->data;
                else if (!strcmp(features[i]->URI, LV2_LOG__log)) log = features[i]->data;
                else if (!strcmp(features[i]->URI, LV2_URID__map)) map = features[i]->data;
            }
            if (!w->schedule || !log || !map) { free(w); return NULL; }
            log->printf(log->handle, map->map(map->handle, LV2_LOG__Note), "test worker ready at %d Hz\\n", (int)rate);
            return w;
        }
        static void connect(LV2_Handle h, uint32_t port, void *data) {
            Worker *w = h;
            switch (port) {
            case 0: w->in = data; break; case 1: w->out = data; break; case 2: w->requests = data; break;
            case 3: w->responses = data; break; case 4: w->ends = data; break;
            }
        }
        static void run(LV2_Handle h, uint32_t n) {
            Worker *w = h;
            if (w->scheduled < (int)*w->requests) {
                int32_t job = w->scheduled + 1;
                if (w->schedule->schedule_work(w->schedule->handle, sizeof job, &job) == LV2_WORKER_SUCCESS)
                    w->scheduled = job;
            }
            for (uint32_t i = 0; i < n; i++) w->out[i] = w->in[i] * w->gain;
        }
        static LV2_Worker_Status work(LV2_Handle h, LV2_Worker_Respond_Function respond,
                                      LV2_Worker_Respond_Handle handle, uint32_t size, const void *data) {
            int32_t answer = *(const int32_t *)data * 10;
            return respond(handle, sizeof answer, &answer);
        }
        static LV2_Worker_Status work_response(LV2_Handle h, uint32_t size, const void *body) {
            Worker *w = h;
            *w->responses += 1;
            w->gain = *(const int32_t *)body == (int32_t)*w->responses * 10 ? 0.5f : 0.0f;
            return LV2_WORKER_SUCCESS;
        }
        static LV2_Worker_Status end_run(LV2_Handle h) { *((Worker *)h)->ends += 1; return LV2_WORKER_SUCCESS; }
        static const LV2_Worker_Interface worker = {work, work_response, end_run};
        static const void *extension_data(const char *uri) {
            return strcmp(uri, LV2_WORKER__interface) ? NULL : &worker;
        }
        static void cleanup(LV2_Handle h) { free(h); }
        static const LV2_Descriptor descriptor = {
            "urn:voicerack:test:worker", instantiate, connect, NULL, run, NULL, cleanup, extension_data};
        LV2_SYMBOL_EXPORT const LV2_Descriptor *lv2_descriptor(uint32_t i) { return i == 0 ? &descriptor : NULL; }
        """
}
