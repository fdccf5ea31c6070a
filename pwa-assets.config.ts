// The installed app's icons, made from public/logo.svg by `npm run icons`
// (@vite-pwa/assets-generator) and committed beside it, so a build needs no image tools.
// The maskable icon's padding is the logo's own blue, so a round or squircle mask
// shows no white edge.
import { defineConfig, minimal2023Preset } from '@vite-pwa/assets-generator/config';

const LOGO_BLUE = '#1f5fcc';

export default defineConfig({
  headLinkOptions: { preset: '2023' },
  preset: {
    ...minimal2023Preset,
    maskable: { ...minimal2023Preset.maskable, resizeOptions: { background: LOGO_BLUE } },
    apple: { ...minimal2023Preset.apple, resizeOptions: { background: LOGO_BLUE } },
  },
  images: ['public/logo.svg'],
});
