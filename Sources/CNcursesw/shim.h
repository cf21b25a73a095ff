#ifndef ERRTRIAGE_CNCURSESW_SHIM_H
#define ERRTRIAGE_CNCURSESW_SHIM_H
#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <langinfo.h>
#include <signal.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <stdlib.h>
#include <wchar.h>
#include <errno.h>
#include <spawn.h>
#include <sys/wait.h>
#if __has_include(<ncursesw/curses.h>)
#include <ncursesw/curses.h>
#else
#include <curses.h>
#endif

/* Swift cannot use curses' macros and C globals directly (function-like macros, mutable globals
   under strict concurrency), so these small helpers stand in for them. */

/* Starts curses on the terminal TERM names, where initscr would print its own message and exit:
   0 started; 1 TERM is unset or empty; 2 terminfo does not know TERM; 3 the terminal cannot
   move the cursor (TERM=dumb), and curses is left again. */
static inline int errtriage_start_screen(void) {
    const char *term = getenv("TERM");
    if (term == NULL || *term == 0) return 1;
    SCREEN *screen = newterm(NULL, stdout, stdin);
    if (screen == NULL) return 2;
    const char *cup = tigetstr("cup");
    if (cup == NULL || cup == (const char *)-1) {
        endwin();
        delscreen(screen);
        return 3;
    }
    return 0;
}

static inline WINDOW *errtriage_stdscr(void) { return stdscr; }
static inline int errtriage_rows(void) { return getmaxy(stdscr); }
static inline int errtriage_cols(void) { return getmaxx(stdscr); }

/* The terminal's real size from the kernel, whatever thread SIGWINCH went to; 0 when unknown. */
static inline int errtriage_winsize(int *rows, int *cols) {
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0 || ws.ws_row == 0 || ws.ws_col == 0) return 0;
    *rows = ws.ws_row;
    *cols = ws.ws_col;
    return 1;
}

static inline attr_t errtriage_attr_normal(void) { return A_NORMAL; }
static inline attr_t errtriage_attr_bold(void) { return A_BOLD; }
static inline attr_t errtriage_attr_dim(void) { return A_DIM; }
static inline attr_t errtriage_attr_reverse(void) { return A_REVERSE; }
static inline attr_t errtriage_attr_underline(void) { return A_UNDERLINE; }

static inline mmask_t errtriage_mouse_click(void) { return BUTTON1_CLICKED; }
static inline mmask_t errtriage_mouse_double_click(void) { return BUTTON1_DOUBLE_CLICKED; }
static inline mmask_t errtriage_mouse_wheel_up(void) { return BUTTON4_PRESSED; }
static inline mmask_t errtriage_mouse_wheel_down(void) {
#ifdef BUTTON5_PRESSED
    return BUTTON5_PRESSED;
#else
    return 0;
#endif
}

static inline int errtriage_key_f0(void) { return KEY_F0; }

/* Draws one cell: a spacing character and up to three combining ones, with attributes and a colour pair. */
static inline int errtriage_put_cell(int y, int x, const wchar_t *text, attr_t attrs, short pair) {
    cchar_t cell;
    if (setcchar(&cell, text, attrs, pair, NULL) != OK) return ERR;
    return mvwadd_wch(stdscr, y, x, &cell);
}

/* Whether the locale's character set is UTF-8. */
static inline int errtriage_locale_is_utf8(void) {
    const char *set = nl_langinfo(CODESET);
    if (set == NULL) return 0;
    return (set[0] == 'U' || set[0] == 'u') && (set[1] == 'T' || set[1] == 't') && (set[2] == 'F' || set[2] == 'f');
}

static int errtriage_screen_active = 0;

static inline void errtriage_set_screen_active(int active) { errtriage_screen_active = active; }

/* Leaves curses mode if it is on; safe to call twice. */
static inline void errtriage_restore_terminal(void) {
    if (errtriage_screen_active) {
        errtriage_screen_active = 0;
        endwin();
    }
}

/* SIGINT, SIGTERM, SIGHUP: give the terminal back, then die of the signal as usual. */
static inline void errtriage_on_fatal_signal(int sig) {
    errtriage_restore_terminal();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* A parent may have started us with signals blocked (a test runner's worker thread, a
   multiplexer spawned by one): unblock those a terminal program lives by, before curses
   installs its SIGWINCH handler. */
static inline void errtriage_unblock_terminal_signals(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGWINCH);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigaddset(&set, SIGTSTP);
    sigaddset(&set, SIGCONT);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

/* Restores the terminal on a fatal signal and on exit(). */
static inline void errtriage_install_restore_handlers(void) {
    signal(SIGINT, errtriage_on_fatal_signal);
    signal(SIGTERM, errtriage_on_fatal_signal);
    signal(SIGHUP, errtriage_on_fatal_signal);
    atexit(errtriage_restore_terminal);
}

extern char **environ;

/* Runs a program with the terminal (the user's editor, while curses is left): its arguments
   as given, never through a shell, with the dashboard's environment. Meanwhile the dashboard
   ignores SIGINT and SIGQUIT, as system() does, so a Ctrl-C in the editor ends at most the
   editor; the child gets the default handlers and an empty signal mask. Returns the wait status,
   or -errno when it could not start. */
static inline int errtriage_run_program(char *const argv[]) {
    struct sigaction ignore, oldint, oldquit;
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    ignore.sa_flags = 0;
    sigaction(SIGINT, &ignore, &oldint);
    sigaction(SIGQUIT, &ignore, &oldquit);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t defaults, empty;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGQUIT);
    sigaddset(&defaults, SIGPIPE);
    sigemptyset(&empty);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setsigmask(&attributes, &empty);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    pid_t child;
    int started = posix_spawnp(&child, argv[0], NULL, &attributes, argv, environ);
    posix_spawnattr_destroy(&attributes);
    int status = -started;
    if (started == 0) {
        while (waitpid(child, &status, 0) == -1 && errno == EINTR) {}
    }
    sigaction(SIGINT, &oldint, NULL);
    sigaction(SIGQUIT, &oldquit, NULL);
    return status;
}

#endif
