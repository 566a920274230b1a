// The eSpeak NG renderer: the only module that calls libespeak-ng.
