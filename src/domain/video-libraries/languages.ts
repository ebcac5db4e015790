/**
 * Languages the video platform knows: those its player interface is translated into and those its
 * speech recognition can caption. Accuracy is the share of words transcribed right on typical
 * speech, in percent (the complement of a word error rate; character-based for languages written
 * without spaces), rounded to what a library owner needs to pick languages.
 */
import type { VideoLibraryLanguageT } from '../../schemas/video-library.js';

const language = (ShortCode: string, Name: string, SupportPlayerTranslation: boolean, TranscribingAccuracy: number): VideoLibraryLanguageT => ({
  ShortCode,
  Name,
  SupportPlayerTranslation,
  SupportTranscribing: TranscribingAccuracy > 0,
  TranscribingAccuracy,
});

/** Sorted by name; a TranscribingAccuracy of 0 means the language cannot be transcribed. */
export const VIDEO_LIBRARY_LANGUAGES: readonly VideoLibraryLanguageT[] = Object.freeze([
  language('ar', 'Arabic', true, 84),
  language('bg', 'Bulgarian', false, 87),
  language('ca', 'Catalan', false, 94),
  language('zh', 'Chinese', true, 86),
  language('hr', 'Croatian', true, 86),
  language('cs', 'Czech', true, 89),
  language('da', 'Danish', true, 88),
  language('nl', 'Dutch', true, 93),
  language('en', 'English', true, 96),
  language('et', 'Estonian', false, 80),
  language('fi', 'Finnish', true, 89),
  language('fr', 'French', true, 92),
  language('de', 'German', true, 95),
  language('el', 'Greek', true, 87),
  language('he', 'Hebrew', true, 79),
  language('hi', 'Hindi', false, 78),
  language('hu', 'Hungarian', true, 85),
  language('id', 'Indonesian', true, 92),
  language('it', 'Italian', true, 96),
  language('ja', 'Japanese', true, 94),
  language('ko', 'Korean', true, 86),
  language('ms', 'Malay', false, 91),
  language('no', 'Norwegian', true, 88),
  language('fa', 'Persian', true, 72),
  language('pl', 'Polish', true, 94),
  language('pt', 'Portuguese', true, 96),
  language('ro', 'Romanian', true, 88),
  language('ru', 'Russian', true, 95),
  language('sr', 'Serbian', true, 82),
  language('sk', 'Slovak', true, 86),
  language('sl', 'Slovenian', false, 81),
  language('es', 'Spanish', true, 97),
  language('sv', 'Swedish', true, 91),
  language('th', 'Thai', false, 90),
  language('tr', 'Turkish', true, 92),
  language('uk', 'Ukrainian', true, 90),
  language('vi', 'Vietnamese', true, 90),
]);
