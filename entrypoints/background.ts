import '@/lib/zodConfig';
import { defineBackground } from 'wxt/utils/define-background';
import { startBackground } from '@/lib/background';

export default defineBackground({ main: startBackground });
