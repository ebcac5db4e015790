/*
 * The embed page's player (served by the video plane, see src/planes/video/embed/). It reads the
 * page's settings from the #player-config data block, plays the video's HLS playlist with hls.js
 * where the browser has Media Source Extensions, natively where it plays HLS itself (Safari), and
 * the MP4 fallback where neither; then wires the controls the page rendered. The engine it chose is
 * written on the player (`data-engine`), a playback failure in its message line.
 */
(() => {
  const config = JSON.parse(document.getElementById('player-config').textContent);
  const player = document.getElementById('player');
  const video = document.getElementById('video');
  const message = player.querySelector('.message');
  const labels = config.labels;
  const positionKey = `edgeplane-position:${config.guid}`;

  function show(text) {
    message.textContent = text;
    message.hidden = false;
    player.dataset.state = 'failed';
  }

  function remembered() {
    if (!config.rememberPosition) return 0;
    try {
      return Number(window.localStorage.getItem(positionKey)) || 0;
    } catch {
      return 0; // storage refused (a sandboxed frame, blocked cookies)
    }
  }

  function remember() {
    if (!config.rememberPosition) return;
    try {
      const ended = video.duration > 0 && video.currentTime >= video.duration - 1;
      window.localStorage.setItem(positionKey, String(ended ? 0 : Math.floor(video.currentTime)));
    } catch {
      // Storage refused: nothing to remember with.
    }
  }

  const start = config.startTime > 0 ? config.startTime : remembered();

  function playFile(url, engine) {
    player.dataset.engine = engine;
    if (start > 0) video.addEventListener('loadedmetadata', () => (video.currentTime = start), { once: true });
    video.src = url;
  }

  function attach() {
    if (config.source.kind === 'original') return playFile(config.source.url, 'file');
    const Hls = window.Hls;
    if (Hls?.isSupported()) {
      player.dataset.engine = 'hls.js';
      // No worker: it would be started from a blob: address, which the page's policy does not allow.
      const hls = new Hls({ enableWorker: false, startPosition: start > 0 ? start : -1 });
      let recovered = false;
      hls.on(Hls.Events.ERROR, (_event, data) => {
        if (!data.fatal) return;
        if (data.type === Hls.ErrorTypes.MEDIA_ERROR && !recovered) {
          recovered = true;
          hls.recoverMediaError();
          return;
        }
        hls.destroy();
        if (config.fallbackUrl) playFile(config.fallbackUrl, 'mp4');
        else show(`${labels.unsupported} (${data.details})`);
      });
      hls.loadSource(config.source.url);
      hls.attachMedia(video);
      return;
    }
    if (video.canPlayType('application/vnd.apple.mpegurl')) return playFile(config.source.url, 'native');
    if (config.fallbackUrl) return playFile(config.fallbackUrl, 'mp4');
    player.dataset.engine = 'none';
    show(labels.unsupported);
  }

  const clock = (seconds) => {
    const s = Math.max(0, Math.floor(seconds || 0));
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    const rest = String(s % 60).padStart(2, '0');
    return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
  };

  function label(element, text) {
    element.setAttribute('aria-label', text);
    element.title = text;
  }

  function togglePlay() {
    if (video.paused || video.ended) video.play().catch(() => undefined);
    else video.pause();
  }

  const actions = {
    'play-large': togglePlay,
    play: togglePlay,
    rewind: () => (video.currentTime = Math.max(0, video.currentTime - 10)),
    'fast-forward': () => (video.currentTime = Math.min(video.duration || Infinity, video.currentTime + 10)),
    mute: () => (video.muted = !video.muted),
    captions: (button) => {
      const tracks = [...video.textTracks];
      const on = tracks.some((t) => t.mode === 'showing');
      for (const track of tracks) track.mode = 'disabled';
      if (!on && tracks[0]) tracks[0].mode = 'showing';
      button.setAttribute('aria-pressed', String(!on));
    },
    pip: () => {
      if (document.pictureInPictureElement) document.exitPictureInPicture().catch(() => undefined);
      else video.requestPictureInPicture?.().catch(() => undefined);
    },
    airplay: () => video.webkitShowPlaybackTargetPicker?.(),
    fullscreen: () => {
      if (document.fullscreenElement) document.exitFullscreen().catch(() => undefined);
      else player.requestFullscreen?.().catch(() => undefined);
    },
  };

  for (const button of player.querySelectorAll('button[data-action]')) {
    const action = actions[button.dataset.action];
    if (action) button.addEventListener('click', () => action(button));
  }
  for (const button of player.querySelectorAll('[data-action="pip"]')) button.hidden = !document.pictureInPictureEnabled;
  for (const button of player.querySelectorAll('[data-action="airplay"]')) button.hidden = typeof video.webkitShowPlaybackTargetPicker !== 'function';
  video.addEventListener('click', togglePlay);

  const seek = player.querySelector('[data-action="seek"]');
  seek?.addEventListener('input', () => (video.currentTime = Number(seek.value)));
  const volume = player.querySelector('[data-action="volume"]');
  volume?.addEventListener('input', () => {
    video.volume = Number(volume.value);
    video.muted = video.volume === 0;
  });
  const speed = player.querySelector('[data-action="speed"]');
  speed?.addEventListener('change', () => (video.playbackRate = Number(speed.value)));

  const currentTime = player.querySelector('[data-role="current-time"]');
  const duration = player.querySelector('[data-role="duration"]');
  let lastSaved = 0;
  video.addEventListener('timeupdate', () => {
    if (currentTime) currentTime.textContent = clock(video.currentTime);
    if (seek && document.activeElement !== seek) seek.value = String(video.currentTime);
    if (Math.abs(video.currentTime - lastSaved) >= 5) {
      lastSaved = video.currentTime;
      remember();
    }
  });
  video.addEventListener('durationchange', () => {
    if (seek && Number.isFinite(video.duration)) seek.max = String(video.duration);
    if (duration && Number.isFinite(video.duration)) duration.textContent = clock(video.duration);
  });
  const playState = () => {
    player.dataset.state = video.paused ? 'paused' : 'playing';
    for (const button of player.querySelectorAll('[data-action="play"], [data-action="play-large"]')) label(button, video.paused ? labels.play : labels.pause);
  };
  video.addEventListener('play', playState);
  video.addEventListener('pause', playState);
  video.addEventListener('ended', remember);
  video.addEventListener('volumechange', () => {
    for (const button of player.querySelectorAll('[data-action="mute"]')) label(button, video.muted ? labels.unmute : labels.mute);
    if (volume) volume.value = String(video.muted ? 0 : video.volume);
  });
  document.addEventListener('fullscreenchange', () => {
    for (const button of player.querySelectorAll('[data-action="fullscreen"]'))
      label(button, document.fullscreenElement ? labels.exitFullscreen : labels.fullscreen);
  });
  window.addEventListener('pagehide', remember);

  attach();
  if (config.autoplay) video.play().catch(() => undefined);
})();
