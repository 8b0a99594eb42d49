import { Module } from '@nestjs/common';
import { ForgetSubjectHandler, LookUpSubjectHandler, SetSubjectNamespacesHandler } from './subject-commands';
import { SubjectsController } from './subjects.controller';

/** Subjects and forgetting them; the sealing itself is the event store's (src/event-store/sealing). */
@Module({
  controllers: [SubjectsController],
  providers: [LookUpSubjectHandler, SetSubjectNamespacesHandler, ForgetSubjectHandler],
})
export class SubjectsModule {}
