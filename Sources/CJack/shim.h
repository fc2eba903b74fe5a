#include <jack/jack.h>
#include <jack/metadata.h>
#include <jack/uuid.h>
