// lilv and the LV2 extension headers voicerack's host uses. Imported by VoiceLV2 only.
#include <lilv/lilv.h>
// serd, lilv's Turtle parser: a state is checked with it before lilv reads it.
#include <serd/serd.h>
#include <lv2/atom/atom.h>
#include <lv2/buf-size/buf-size.h>
#include <lv2/core/lv2.h>
#include <lv2/log/log.h>
#include <lv2/options/options.h>
#include <lv2/parameters/parameters.h>
#include <lv2/port-props/port-props.h>
#include <lv2/resize-port/resize-port.h>
#include <lv2/state/state.h>
#include <lv2/units/units.h>
#include <lv2/urid/urid.h>
#include <lv2/worker/worker.h>
