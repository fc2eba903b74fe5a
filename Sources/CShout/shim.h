#include <shout/shout.h>
