/*
 * engine/timeline/timeline_page.h: the offline page's constant parts
 * (timeline_page.c) and its limit. Internal.
 */
#ifndef NTSIM_ENGINE_TIMELINE_PAGE_H
#define NTSIM_ENGINE_TIMELINE_PAGE_H

/* The marks a page holds at most (D-TIMELINE-HTML): past it, the first ones
 * in time order, and a note to open the .pftrace in Perfetto. */
#define NTSIM_TIMELINE_PAGE_MAX_MARKS 200000

/* The <style> and <script> elements' text: lines, NULL-terminated. */
extern const char *const ntsim__timeline_page_style[];
extern const char *const ntsim__timeline_page_script[];

#endif /* NTSIM_ENGINE_TIMELINE_PAGE_H */
