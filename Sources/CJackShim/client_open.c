// jack_client_open is variadic (the server name rides in the "..." part when JackServerName is
// set); Swift cannot call C variadics, so this one function forwards it.
#include "CJackShim.h"

jack_client_t *voicerack_client_open(const char *client_name, jack_options_t options,
                                     jack_status_t *status, const char *server_name) {
    if (server_name) {
        return jack_client_open(client_name, options | JackServerName, status, server_name);
    }
    return jack_client_open(client_name, options, status);
}
