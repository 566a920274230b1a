// probe VOICE FILE: for each line of FILE (one test string), fork a child that speaks it
// with libespeak-ng; prints the exit status of each child: "STATUS<TAB>line".
// Run under valgrind --undef-value-errors=no --error-exitcode=9: a child that reads freed
// memory (or out of bounds) exits 9. See README.md.
#include <espeak-ng/speak_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int discard(short *wav, int n, espeak_EVENT *events) { (void)wav; (void)n; (void)events; return 0; }

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: probe VOICE FILE [x]\n"); return 64; }
    int phonemesOnly = argc > 3;
    if (espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, NULL, 0) < 0) return 70;
    espeak_SetSynthCallback(discard);
    if (espeak_SetVoiceByName(argv[1]) != EE_OK) { fprintf(stderr, "no voice %s\n", argv[1]); return 65; }
    // Read whole first: a child's exit (valgrind's freeres) would move a shared stream's offset.
    FILE *f = fopen(argv[2], "r");
    if (!f) return 66;
    static char all[1 << 24];
    size_t total = fread(all, 1, sizeof all - 1, f);
    fclose(f);
    all[total] = 0;
    for (char *line = strtok(all, "\n"); line; line = strtok(NULL, "\n")) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            if (phonemesOnly) {
                const void *p = line;
                while (p) espeak_TextToPhonemes(&p, espeakCHARS_UTF8, 0);
            } else {
                espeak_Synth(line, strlen(line) + 1, 0, POS_CHARACTER, 0, espeakCHARS_UTF8, NULL, NULL);
                espeak_Synchronize();
            }
            _exit(0);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        printf("%d\t%s\n", code, line);
    }
    return 0;
}
