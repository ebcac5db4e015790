/**
 * The words of the embed player's controls in the languages it is translated into; a library's
 * `UILanguage` outside this table gets the English words (and the page says `lang="en"`).
 */
export interface PlayerLabels {
  play: string;
  pause: string;
  mute: string;
  unmute: string;
  volume: string;
  seek: string;
  rewind: string;
  fastForward: string;
  captions: string;
  speed: string;
  pip: string;
  airplay: string;
  fullscreen: string;
  exitFullscreen: string;
  unsupported: string;
}

const LABELS: Record<string, PlayerLabels> = {
  en: {
    play: 'Play',
    pause: 'Pause',
    mute: 'Mute',
    unmute: 'Unmute',
    volume: 'Volume',
    seek: 'Seek',
    rewind: 'Rewind 10 seconds',
    fastForward: 'Forward 10 seconds',
    captions: 'Captions',
    speed: 'Speed',
    pip: 'Picture in picture',
    airplay: 'AirPlay',
    fullscreen: 'Full screen',
    exitFullscreen: 'Exit full screen',
    unsupported: 'This browser cannot play this video.',
  },
  de: {
    play: 'Abspielen',
    pause: 'Pause',
    mute: 'Stumm',
    unmute: 'Ton an',
    volume: 'Lautstärke',
    seek: 'Springen',
    rewind: '10 Sekunden zurück',
    fastForward: '10 Sekunden vor',
    captions: 'Untertitel',
    speed: 'Geschwindigkeit',
    pip: 'Bild im Bild',
    airplay: 'AirPlay',
    fullscreen: 'Vollbild',
    exitFullscreen: 'Vollbild beenden',
    unsupported: 'Dieser Browser kann dieses Video nicht abspielen.',
  },
  fr: {
    play: 'Lecture',
    pause: 'Pause',
    mute: 'Couper le son',
    unmute: 'Activer le son',
    volume: 'Volume',
    seek: 'Avancer ou reculer',
    rewind: 'Reculer de 10 secondes',
    fastForward: 'Avancer de 10 secondes',
    captions: 'Sous-titres',
    speed: 'Vitesse',
    pip: 'Image dans l’image',
    airplay: 'AirPlay',
    fullscreen: 'Plein écran',
    exitFullscreen: 'Quitter le plein écran',
    unsupported: 'Ce navigateur ne peut pas lire cette vidéo.',
  },
  es: {
    play: 'Reproducir',
    pause: 'Pausa',
    mute: 'Silenciar',
    unmute: 'Activar sonido',
    volume: 'Volumen',
    seek: 'Buscar',
    rewind: 'Retroceder 10 segundos',
    fastForward: 'Avanzar 10 segundos',
    captions: 'Subtítulos',
    speed: 'Velocidad',
    pip: 'Imagen en imagen',
    airplay: 'AirPlay',
    fullscreen: 'Pantalla completa',
    exitFullscreen: 'Salir de pantalla completa',
    unsupported: 'Este navegador no puede reproducir este vídeo.',
  },
  it: {
    play: 'Riproduci',
    pause: 'Pausa',
    mute: 'Disattiva audio',
    unmute: 'Attiva audio',
    volume: 'Volume',
    seek: 'Cerca',
    rewind: 'Indietro di 10 secondi',
    fastForward: 'Avanti di 10 secondi',
    captions: 'Sottotitoli',
    speed: 'Velocità',
    pip: 'Picture in picture',
    airplay: 'AirPlay',
    fullscreen: 'Schermo intero',
    exitFullscreen: 'Esci da schermo intero',
    unsupported: 'Questo browser non può riprodurre questo video.',
  },
  nl: {
    play: 'Afspelen',
    pause: 'Pauzeren',
    mute: 'Dempen',
    unmute: 'Geluid aan',
    volume: 'Volume',
    seek: 'Zoeken',
    rewind: '10 seconden terug',
    fastForward: '10 seconden vooruit',
    captions: 'Ondertiteling',
    speed: 'Snelheid',
    pip: 'Beeld in beeld',
    airplay: 'AirPlay',
    fullscreen: 'Volledig scherm',
    exitFullscreen: 'Volledig scherm sluiten',
    unsupported: 'Deze browser kan deze video niet afspelen.',
  },
  pt: {
    play: 'Reproduzir',
    pause: 'Pausar',
    mute: 'Silenciar',
    unmute: 'Ativar som',
    volume: 'Volume',
    seek: 'Procurar',
    rewind: 'Recuar 10 segundos',
    fastForward: 'Avançar 10 segundos',
    captions: 'Legendas',
    speed: 'Velocidade',
    pip: 'Imagem em imagem',
    airplay: 'AirPlay',
    fullscreen: 'Ecrã inteiro',
    exitFullscreen: 'Sair do ecrã inteiro',
    unsupported: 'Este navegador não consegue reproduzir este vídeo.',
  },
};

/** The page's language and its words: the library's `UILanguage` (`de`, `pt-BR` read as `pt`) when translated, else English. */
export function playerLabels(uiLanguage: string | null): { lang: string; labels: PlayerLabels } {
  const lang = (uiLanguage ?? '').trim().toLowerCase().split(/[-_]/)[0] ?? '';
  const labels = LABELS[lang];
  return labels ? { lang, labels } : { lang: 'en', labels: LABELS['en']! };
}
