// cairo (2D drawing into a pixel buffer) and Pango (text layout, shaping, bidi) through pangocairo: the
// player view draws its controls with them. Plain C functions, callable from Swift as they are.
#include <cairo.h>
#include <pango/pangocairo.h>
