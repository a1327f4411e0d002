// The side panel's files import it from here; every page shares the one in components/.
export { ProblemMessage } from '@/components/ProblemMessage';
