#ifndef CJACKSHIM_H
#define CJACKSHIM_H

#include <jack/jack.h>

/// jack_client_open without the variadic tail, which Swift cannot call.
/// server_name may be NULL for the default server; it sets JackServerName when given.
jack_client_t *voicerack_client_open(const char *client_name, jack_options_t options,
                                     jack_status_t *status, const char *server_name);

#endif
